import Application
import CoreMetrics
import Foundation
import LogChain
import Logging
import PostgresStore
import SQLiteStore
import Security

/// A library's storage, the embedded SQLite file or a PostgreSQL database several servers share:
/// every port the use cases read and write, from one adapter.
protocol LibraryStorage: HealthCheck, ProjectionProgress, ReadModelRebuilder, LogVerifier, LogArchive {
    var events: any EventStore { get }
    var catalogueReadModel: any Catalogue { get }
    var numbers: any CatalogueNumbers { get }
    var accountsReadModel: any Accounts { get }
    var appKeyRegister: any AppKeyRegister { get }
    var failures: any LoginFailures { get }
    var cache: any SearchCache { get }
    var countries: any CountryListStore { get }
    var loanRegister: any LoanRegister & NoticeBoard { get }
    var holdRegister: any HoldRegister { get }
    func shelf(coversURL: String) -> any BookmarkShelf
    var receipts: any RequestReceipts { get }
    /// Copies of the library: `audit replay` and time travel.
    var replayer: any LogReplayer { get }
    var backup: any LibraryBackup { get }
    /// Where it is, for the server's first log line.
    var location: String { get }
    /// Closes it once the server or the command is done.
    func shutDown() async throws
}

extension LibraryDatabase: LibraryStorage {
    var events: any EventStore { eventStore }
    var catalogueReadModel: any Catalogue { catalogue }
    var numbers: any CatalogueNumbers { catalogueNumbers }
    var accountsReadModel: any Accounts { accounts }
    var appKeyRegister: any AppKeyRegister { appKeys }
    var failures: any LoginFailures { loginFailures() }
    var cache: any SearchCache { searchCache() }
    var countries: any CountryListStore { countryList }
    var loanRegister: any LoanRegister & NoticeBoard { loans }
    var holdRegister: any HoldRegister { holds }
    func shelf(coversURL: String) -> any BookmarkShelf { bookmarkShelf(coversURL: coversURL) }
    var receipts: any RequestReceipts { requestReceipts }
    var replayer: any LogReplayer { self }
    var backup: any LibraryBackup { self }
    var location: String { path }
    func shutDown() async throws { try close() }
}

extension PostgresLibrary: LibraryStorage {
    var events: any EventStore { eventStore }
    var catalogueReadModel: any Catalogue { catalogue }
    var numbers: any CatalogueNumbers { catalogueNumbers }
    var accountsReadModel: any Accounts { accounts }
    var appKeyRegister: any AppKeyRegister { appKeys }
    var failures: any LoginFailures { loginFailures() }
    var cache: any SearchCache { searchCache() }
    var countries: any CountryListStore { countryList }
    var loanRegister: any LoanRegister & NoticeBoard { loans }
    var holdRegister: any HoldRegister { holds }
    func shelf(coversURL: String) -> any BookmarkShelf { bookmarkShelf(coversURL: coversURL) }
    var receipts: any RequestReceipts { requestReceipts }
    var replayer: any LogReplayer { SQLiteCopy(of: self, cipher: SwiftCryptoPersonalCipher()) }
    var backup: any LibraryBackup { SQLiteCopy(of: self, cipher: SwiftCryptoPersonalCipher()) }
    var location: String { address }
    func shutDown() async throws { await close() }
}
