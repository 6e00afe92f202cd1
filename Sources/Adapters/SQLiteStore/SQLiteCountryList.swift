import Application
import GRDB

/// Keeps the live country list in `country_list`, so it is fetched from the network once.
/// (Outside data, not a read model: it is not built from events.)
public struct SQLiteCountryList: CountryListStore {
    let pool: DatabasePool
    let reads: ReadConnections

    public func load() async throws -> [Country]? {
        let countries = try reads.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM country_list ORDER BY name").map {
                Country(code: $0["code"], name: $0["name"], frenchName: $0["french_name"])
            }
        }
        return countries.isEmpty ? nil : countries
    }

    public func save(_ countries: [Country]) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM country_list")
            for country in countries {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO country_list (code, name, french_name) VALUES (?, ?, ?)",
                    arguments: [country.code, country.name, country.frenchName])
            }
        }
    }
}

extension LibraryDatabase {
    /// Where the live country list is kept.
    public var countryList: SQLiteCountryList { SQLiteCountryList(pool: pool, reads: reads) }
}
