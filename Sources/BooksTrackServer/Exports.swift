// Callers of `LocalServer.start(_:catalog:)` get the catalog types (`CatalogQuerying`,
// `SQLiteCatalog`) with `import BooksTrackServer` alone.
@_exported import BooksTrackCatalog
