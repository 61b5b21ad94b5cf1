// The home page's cards and the picker's titles, computed at build time (deploy/catalogueCards.ts).
declare module 'virtual:catalogue-cards' {
  const cards: import('../../charts/cards.ts').CatalogueCards;
  export default cards;
}
declare module 'virtual:catalogue-titles' {
  const titles: readonly import('../../charts/cards.ts').ScenarioTitle[];
  export default titles;
}
