/// What is wrong with one input field, as a value: the words are the message catalogue's
/// (`Application/Messages`), so every language says the same problems.
public enum FieldProblem: Equatable, Sendable {
    /// Missing or blank.
    case required
    /// Required because another field has a value (`view` is `member`).
    case requiredWith(field: String, value: String)
    /// Exactly one of these fields must be given.
    case exactlyOneOf([String])
    /// At least one of these fields must be given.
    case atLeastOneOf([String])
    /// Longer than `max` characters.
    case tooLong(max: Int)
    /// Longer than `max` bytes once encoded in UTF-8 (a password, for bcrypt).
    case tooManyBytes(max: Int)
    /// Shorter than `min` characters.
    case tooShort(min: Int)
    /// A list with more than `max` items.
    case tooMany(max: Int)
    /// A list with fewer than `min` items.
    case tooFew(min: Int)
    /// A whole number outside `min...max`.
    case outOfRange(min: Int, max: Int)
    /// A number (a whole one when `whole`) outside `min...max`, counted in `unit`.
    case numberOutOfRange(min: Double, max: Double, whole: Bool, unit: MeasureUnit?)
    /// A number below `min`.
    case tooSmall(min: Int)
    /// Not one of the listed choices (an enumeration such as a role or a sort order).
    case notOneOf([String])
    /// Not a value of the expected kind.
    case wrongType(ValueKind)
    /// A field the operation does not know.
    case unknownField
    /// Holds control characters (line breaks and tabs are allowed when `allowingLineBreaks`).
    case controlCharacters(allowingLineBreaks: Bool)
    /// Holds invisible formatting characters (zero-width spaces, direction overrides).
    case invisibleCharacters
    /// Holds white space where none may be.
    case containsSpaces
    /// Not shaped like an email address.
    case notAnEmailAddress
    /// An email address whose domain has no dot.
    case emailDomainWithoutDot
    /// A password without an uppercase letter.
    case needsUppercase
    /// A password without a character that is neither a letter nor a digit.
    case needsSpecialCharacter
    /// A new password typed twice, differently.
    case passwordsDiffer
    /// Not shaped like a password reset code (12 letters and digits).
    case notAResetCode
    /// Not an ISO 3166-1 alpha-2 code.
    case notACountryCode
    /// A well-formed country code no country has.
    case unknownCountry(String)
    /// The text is not a library card number, and why.
    case notACardNumber(String, CardNumber.Problem)
    /// Names a member by something that is neither an account id nor an email address (a walk-in
    /// borrower's name, which another field takes).
    case notAMemberReference(String)
    /// The text is not an ISBN, and why.
    case notAnISBN(String, ISBN.Problem)
    /// A search names a field it cannot search in (`auther:tolkien`); `known` are those it can.
    case unknownSearchField(String, known: [String])
    /// A search names a field with nothing after it (`author:`).
    case emptySearchField(String)
    /// Not an Open Library work key (`OL27448W`).
    case notAWorkKey
    /// Taken by another record (an email address by another account).
    case taken
    /// Not an http(s) URL.
    case notAWebAddress
    /// A list of IP addresses holding this, which is not one.
    case notAnIPAddress(String)
    /// A folder that cannot be created.
    case folderUnusable(String)
    /// A file was named in a folder that does not exist (it is not created: the path may be a typo).
    case folderMissing(String)
    /// The library must own at least one copy of a book.
    case noCopies(wouldBe: Int)
    /// A query so broad the search source refuses it.
    case tooVague
    /// Must be true to confirm an operation that cannot be undone (clearing the catalogue).
    case confirmationNeeded
    /// A file that exists already where a new one is written.
    case fileExists(String)
    /// A file that cannot be read or written.
    case fileUnusable(String)
    /// Not a duration such as `30m`, `6h` or `1d`, from `min` to `max` (written the same way).
    case notADuration(min: String, max: String)
    /// Not a username: letters, digits, dots, hyphens or underscores, starting with a letter.
    case notAUsername
    /// Characters with a plainer twin (fullwidth letters, ligatures): a look-alike of another text.
    case lookalikeCharacters
    /// An email domain written in its ASCII-compatible form (`xn--bcher-kva`): typed in its own
    /// letters (`bücher`) it is the same address, so it would be a second spelling of one mailbox.
    case encodedDomain
    /// Not `*` nor a list of entity tags (`"7.2", W/"7.1"`): an `If-Match` or `If-None-Match` header.
    case notEntityTags
    /// Not a PostgreSQL address (`postgres://user@host:port/database`).
    case notADatabaseURL
    /// No PostgreSQL server answered at this address (shown without its password), or it refused the user, password or database.
    case databaseUnreachable(String)
    /// A database to copy a library into already holds this many events.
    case databaseNotEmpty(events: Int64)
    /// Another copy into this database is under way.
    case copyUnderWay
    /// A restore was asked of a library kept in PostgreSQL (a restore replaces a SQLite file).
    case restoreOnPostgres
    /// The file is there but SQLite cannot read it as a database (a folder, another kind of file,
    /// a damaged one).
    case notALibraryFile(String)
    /// No library file at the path a command that only reads one was given (it is not created:
    /// the path may be a typo, and an empty new library would verify).
    case noLibrary(String)
    /// Bytes that are not UTF-8 text (a command-line argument; an API body is refused whole).
    case notUTF8
}

/// What a number counts, for a message.
public enum MeasureUnit: String, Equatable, Sendable, CaseIterable {
    case days, seconds, mebibytes, perMinuteAndClient, perMinuteAndAccount
}

/// The kinds of value a field can expect, as the catalogue names them.
public enum ValueKind: String, Equatable, Sendable, CaseIterable {
    case string, integer, number, boolean, array, object
    /// A JSON document (a request body).
    case json
    /// An ISO 8601 time such as `2026-12-01T09:00:00Z`.
    case time
    /// An id (a UUID).
    case id
}
