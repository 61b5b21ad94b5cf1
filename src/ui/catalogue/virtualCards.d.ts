// The home page's cards, computed at build time (deploy/catalogueCards.ts).
declare module 'virtual:catalogue-cards' {
  const cards: import('./cardData.ts').CatalogueCards;
  export default cards;
}
