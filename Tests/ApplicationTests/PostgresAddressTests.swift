import Foundation
import PostgresStore
import Testing

/// `--database-url` as the PostgreSQL store reads it: no server needed.
@Suite("PostgreSQL address")
struct PostgresAddressTests {
    @Test("a full URL gives the host, port, user, password and database, and is shown without its password")
    func full() throws {
        let address = try PostgresAddress("postgres://ada:s%40cret@db.example.org:6543/library?sslmode=require")
        #expect(address.configuration.host == "db.example.org")
        #expect(address.configuration.port == 6543)
        #expect(address.configuration.username == "ada")
        #expect(address.configuration.password == "s@cret")
        #expect(address.configuration.database == "library")
        #expect(address.description == "postgres://ada@db.example.org:6543/library?sslmode=require")
    }

    @Test("the port is 5432 and the database the user's name unless given; a Unix socket through host=")
    func defaults() throws {
        let plain = try PostgresAddress("postgresql://ada@localhost")
        #expect(plain.configuration.port == 5432)
        #expect(plain.configuration.database == "ada")
        let socket = try PostgresAddress("postgres://ada@/library?host=/var/run/postgresql")
        #expect(socket.configuration.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5432")
        #expect(socket.configuration.database == "library")
    }

    @Test(
        "a URL that cannot be used says why",
        arguments: [
            ("not a url at all", PostgresAddressProblem.notAURL),
            ("mysql://ada@host/db", .scheme("mysql")),
            ("postgres://host/db", .noUser),
            ("postgres://ada@/db", .noHost),
            ("postgres://ada@host/db?sslmode=sometimes", .sslMode("sometimes")),
            ("postgres://ada@host/db?timeout=3", .option("timeout")),
            ("postgres://ada@host/db?sslmode=require&sslmode=disable", .repeated("sslmode")),
            ("postgres://ada@/db?host=relative/folder", .socketFolder("relative/folder")),
            ("postgres://ada@host/a/b", .database("a/b")),
        ])
    func refused(url: String, problem: PostgresAddressProblem) {
        #expect(throws: problem) { try PostgresAddress(url) }
    }
}
