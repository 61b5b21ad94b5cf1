// The home page's cards, computed at build time (deploy/catalogueCards.ts).
declare module 'virtual:catalogue-cards' {
  const cards: import('../../charts/cards.ts').CatalogueCards;
  export default cards;
}
