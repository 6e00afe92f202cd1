import Application
import Domain
import Foundation
import Testing
import Wording

/// Every sample message has French words, no key showing through.
@Suite struct WordingFrenchSamplesTests {
    static let hobbit = BookName(BookID(UUID()), title: "The Hobbit")
    static let ada = MemberName(displayName: "Ada", email: "ada@example.org")

    static let samples: [Message] =
        [
            .notFound(.book, id: "7d2c"), .notFound(.card, id: "1234567890"), .notFound(.edition, id: "9780261103344"),
            .notFound(.user, id: "a@b.org"), .notFound(.stream, id: ""), .notFound(.work, id: "OL1W"), .notFound(.hold, id: ""),
            .badSetting("SHELFMARK_PORT", value: "x", .required), .badSetting("", value: nil, .required),
            .invalidInput([FieldError("title", .required), FieldError("author", .required)]),
            .cannotListen(.portNeedsPrivilege(host: "0.0.0.0", port: 80)), .cannotListen(.bitbooks(.notAnAddressHere(host: "10.9.9.9"))),
            .cannotListen(.unknownHost("nowhere.invalid")),
            .bookAlreadyInCatalogue(hobbit), .copiesOnLoan(hobbit, onLoan: 1), .copiesOnLoan(hobbit, onLoan: 3),
            .fewerCopiesThanOnLoan(hobbit, requested: 1, onLoan: 2), .noCopyAvailable(hobbit, copies: 1),
            .noCopyAvailable(hobbit, copies: 3),
            .duplicateISBN("9780261103344", existing: hobbit), .loanAlreadyReturned(title: "The Hobbit"), .loanAlreadyReturned(title: nil),
            .renewalLimitReached(title: "The Hobbit", max: 1), .renewalLimitReached(title: nil, max: 2),
            .renewalLimitReached(title: nil, max: 5),
            .overdueCannotBeRenewed(title: nil), .othersWaiting(title: "The Hobbit", count: 1),
            .othersWaiting(title: "The Hobbit", count: 2),
            .loanIDInUse, .loanLimitReached(max: 5, active: 1, requested: 5), .loanLimitReached(max: 5, active: 3, requested: 3),
            .tooManyInOneRequest(max: 5), .bookAskedTwice(hobbit),
            .memberLoanLimitReached(member: "Ada", max: 5, active: 1, requested: 9),
            .memberLoanLimitReached(member: "Ada", max: 5, active: 4, requested: 2),
            .memberHasBookAlready(member: "Ada", hobbit), .walkInLimitReached(name: "Mrs Hudson", max: 5, active: 5),
            .walkInLimitReached(name: "Mrs Hudson", max: 1, active: 1), .walkInLimitReached(name: "Mrs Hudson", max: 0, active: 0),
            .walkInHasBookAlready(name: "Mrs Hudson", hobbit), .appKey(.notALibrarian(email: "ada@example.org")),
            .appKey(.unknownKey),
            .appRequest(.noBookNumbered(7)), .appRequest(.noBookNumbered(nil)), .appRequest(.noSuchRoute(path: "x")),
            .appRequest(.formNamesTwice("title")), .appRequest(.neitherJSONNorForm), .appRequest(.checkoutTimeUnreadable), .noCardYet,
            .copyOnShelf(hobbit, available: 2), .alreadyHolding(hobbit, position: 3), .holdOnBorrowedBook(hobbit),
            .holdLimitReached(max: 1),
            .holdLimitReached(max: 5), .copiesKeptForOthers(hobbit, count: 1), .copiesKeptForOthers(hobbit, count: 2),
            .copiesKeptCannotGo(hobbit, count: 1), .copiesKeptCannotGo(hobbit, count: 2), .holdIDInUse, .unauthenticated,
            .forbidden(.librarianOnly), .forbidden(.operatorOnly), .emailTaken, .usernameTaken, .lastLibrarian(ada),
            .closingWithHolds(ada, titles: ["Dune"]), .closingWithHolds(ada, titles: [nil]), .librarianOnlyOnCommandLine(actingAs: ada),
            .invalidCredentials, .tooManyAttempts(retryAfterSeconds: 1), .tooManyAttempts(retryAfterSeconds: 30), .wrongPassword,
            .resetCodeRefused, .serverBusy, .serverFailed, .contention, .staleVersion(current: "7.2"), .rateLimited(retryAfterSeconds: 1),
            .rateLimited(retryAfterSeconds: 30), .upstreamUnavailable(.openLibrary),
            .upstreamUnavailable(.restCountries),
            .integrity(.keyFileUnreadable(path: "k")), .integrity(.notAKeyFile(path: "k")), .integrity(.keyFileExists(path: "k")),
            .integrity(.keyFileUncreatable(path: "k")), .integrity(.keyFileUnwritable(path: "k")), .integrity(.keyNeeded(keyedFrom: 1)),
            .integrity(.keyOfAnotherDatabase(path: "k", keyedFrom: 5, head: 9)), .integrity(.keyFileMissing(path: "k", keyedFrom: 1)),
            .integrity(.keyDisagrees(path: "k", fileKeyedFrom: 1, fileKey: "a", keyedFrom: 2, key: "b")),
            .integrity(.anchorFileUnwritable(path: "a")), .integrity(.anchorNeedsKey),
            .backup(.fileExists("b")), .backup(.sameAsLibrary("b")), .backup(.libraryFile("b.key")), .backup(.backupMissing("b")),
            .backup(.notALibrary("b")),
            .backup(.backupKeyMissing("b", key: "b.key", keyedFrom: 3)), .backup(.keyUnusable("b", .notAKeyFile(path: "k"))),
            .backup(.doesNotVerify("b", failed: AuditCheck(.hashChain, passed: false, .exportChainBreaks(position: 4)))),
            .backup(.libraryInUse("b")),
            .backup(.lockUnusable("b")),
            .done(
                .backedUp(
                    BackupReport(
                        file: "b", summary: LibrarySummary(events: 12, headHash: "0a1b2c3d4e5f6789"), keyFile: "b.key", anchorFile: nil))),
            .done(.restored(RestoreReport(backup: "b", target: "l", restored: LibrarySummary(events: 1, headHash: nil), replaced: nil))),
            .done(
                .restored(
                    RestoreReport(
                        backup: "b", target: "l", restored: LibrarySummary(events: 2, headHash: nil),
                        replaced: ReplacedLibrary(keptAs: "l.old", summary: nil)))),
            .done(.actor(.erasedMember)), .done(.actor(.cliOperator)), .done(.actor(.anonymous)), .done(.actor(.system)),
            .done(.actor(.unknownMember)),
            .done(.fieldChange(FieldChange(field: "title", after: "Dune"))),
            .done(.fieldChange(FieldChange(field: "t", before: "a", after: nil))),
            .done(.fieldChange(FieldChange(field: "t", after: nil))),
        ]
        + [
            RequestTrouble.noSuchPath("/api/v1/nothing"), .malformedURL, .notJSON, .valueUnreadable, .notHTTP, .headersTooLarge,
            .notAnObject, .bodyRequired, .unsupportedMediaType, .notAcceptable, .unreadable, .storageUnavailable, .badContentLength,
            .bodyIncomplete, .bodyTooLarge(max: 512), .bodyTooSlow(seconds: 10), .bodyTooSlow(seconds: 1), .duplicateKey("title"),
            .contentTypes(2), .notUTF8(charset: "utf-16"),
            .contractMissing, .noSuchPage, .notAForm, .formTooLarge(max: 65536), .staleForm,
        ].map(Message.request)

    @Test func frenchSaysEverySampleInFrench() {
        for message in Self.samples {
            let french = Wording(.french).text(message)
            #expect(!french.isEmpty && !french.contains("message."), "\(message): \(french)")
        }
    }
}
