import GRDB

extension BookLibrary {
    /// Versioned migrations; a file with migrations this list lacks is refused (`newerSchema`).
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1: works, editions, authors, reading fields, tags, provenance, fts") { db in
            try db.execute(
                sql: """
                    CREATE TABLE work (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        title TEXT NOT NULL,
                        series TEXT,
                        seriesNumber REAL,
                        originalYear INTEGER,
                        description TEXT,
                        subjects TEXT NOT NULL DEFAULT ''
                    );
                    CREATE TABLE author (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        name TEXT NOT NULL
                    );
                    CREATE TABLE work_author (
                        workId INTEGER NOT NULL REFERENCES work(id) ON DELETE CASCADE,
                        authorId INTEGER NOT NULL REFERENCES author(id),
                        position INTEGER NOT NULL,
                        PRIMARY KEY (workId, authorId)
                    ) WITHOUT ROWID;
                    CREATE INDEX work_author_by_author ON work_author(authorId);
                    CREATE TABLE edition (
                        id INTEGER PRIMARY KEY,
                        workId INTEGER NOT NULL REFERENCES work(id),
                        key TEXT NOT NULL UNIQUE,
                        isbn13 TEXT UNIQUE,
                        isbn10 TEXT,
                        asin TEXT,
                        goodreadsBookId TEXT,
                        title TEXT NOT NULL,
                        publisher TEXT,
                        publishedDate TEXT,
                        publishedYear INTEGER,
                        pageCount INTEGER,
                        format TEXT,
                        language TEXT,
                        coverUrl TEXT,
                        averageRating REAL
                    );
                    CREATE INDEX edition_by_work ON edition(workId);
                    CREATE TABLE reading (
                        editionId INTEGER PRIMARY KEY REFERENCES edition(id) ON DELETE CASCADE,
                        shelf TEXT NOT NULL,
                        rating REAL CHECK (rating IS NULL OR (rating > 0 AND rating <= 5)),
                        dateRead TEXT,
                        dateAdded TEXT NOT NULL,
                        readCount INTEGER,
                        review TEXT,
                        privateNotes TEXT,
                        ownedCopies INTEGER
                    );
                    CREATE INDEX reading_by_shelf ON reading(shelf);
                    CREATE TABLE reading_tag (
                        editionId INTEGER NOT NULL REFERENCES edition(id) ON DELETE CASCADE,
                        tag TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (editionId, tag)
                    ) WITHOUT ROWID;
                    CREATE INDEX reading_tag_by_tag ON reading_tag(tag);
                    CREATE TABLE provenance (
                        editionId INTEGER NOT NULL REFERENCES edition(id) ON DELETE CASCADE,
                        source TEXT NOT NULL,
                        detail TEXT NOT NULL,
                        firstSeen TEXT NOT NULL,
                        PRIMARY KEY (editionId, source, detail)
                    );
                    CREATE VIRTUAL TABLE library_fts USING fts5(
                        title, authors, series, notes, tags,
                        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
                    INSERT INTO library_fts(library_fts, rank) VALUES ('rank', 'bm25(10.0, 6.0, 4.0, 1.0, 2.0)');
                    """
            )
        }
        return m
    }
}
