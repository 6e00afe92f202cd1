import Application
import Foundation
import Logging
import PostgresNIO

/// Keeps the live country list in `country_list`, as `SQLiteCountryList` does, so it is fetched
/// from the network once (outside data, not a read model). A save replaces the whole list in one
/// transaction, the table locked against other saves (never against loads): two servers saving
/// at once leave one list or the other, never a mix.
public struct PostgresCountryList: CountryListStore {
    let client: PostgresPool
    let logger: Logger

    public func load() async throws -> [Country]? {
        let countries = try await client.session(logger) { session in
            try await session.rows(
                "SELECT code, name, french_name FROM country_list ORDER BY name, code", as: (String, String, String?).self)
        }.map { Country(code: $0.0, name: $0.1, frenchName: $0.2) }
        return countries.isEmpty ? nil : countries
    }

    public func save(_ countries: [Country]) async throws {
        // A code given twice keeps its last entry, as SQLite's INSERT OR REPLACE does.
        var last: [String: Int] = [:]
        for (index, country) in countries.enumerated() { last[country.code] = index }
        let kept = countries.enumerated().filter { last[$0.element.code] == $0.offset }.map(\.element)
        let json = String(decoding: try JSONEncoder().encode(kept), as: UTF8.self)
        try await client.session(logger) { session in
            try await session.transaction {
                try await session.run("LOCK TABLE country_list IN SHARE ROW EXCLUSIVE MODE")
                try await session.run("DELETE FROM country_list")
                try await session.run(
                    """
                    INSERT INTO country_list (code, name, french_name)
                    SELECT code, name, "frenchName" FROM json_to_recordset(\(json)::json) AS c(code TEXT, name TEXT, "frenchName" TEXT)
                    """)
            }
        }
    }

    /// The `country_list` table (SQLite's of `v3-country-list`).
    static let migration = PostgresSchema.Migration(
        name: "country-list-v1",
        sql: [
            """
            CREATE TABLE country_list (
                code TEXT COLLATE "C" PRIMARY KEY,
                name TEXT COLLATE "C" NOT NULL,
                french_name TEXT
            )
            """
        ])
}

extension PostgresLibrary {
    /// Where the live country list is kept (`LibraryDatabase.countryList` on SQLite).
    public var countryList: PostgresCountryList { PostgresCountryList(client: client, logger: logger) }
}
