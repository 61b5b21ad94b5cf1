// subset-font ships no types: the one call the symbol font's build makes (deploy/symbolFont.ts).
declare module 'subset-font' {
  export default function subsetFont(
    font: Uint8Array,
    text: string,
    options?: { targetFormat?: 'sfnt' | 'woff' | 'woff2'; preserveNameIds?: number[] },
  ): Promise<Uint8Array>;
}
