import Application
import ArgumentParser
import Domain
import Foundation
import Wording

/// The catalogue the command line speaks from: the library's words in the run's language
/// (`--lang`, else `LC_ALL`, `LC_MESSAGES`, `LANG`).
let catalogue = Wording(Speaking.language)

/// A sentence of the command line's own (a confirmation, an empty list, a page's footer), in the
/// catalogue's words.
func say(_ confirmation: Confirmation) -> String { catalogue.text(confirmation) }

/// A usage error worded by the catalogue: the option and what is wrong with it.
func usage(_ option: String, _ problem: FieldProblem) -> ValidationError {
    ValidationError(catalogue.text(FieldError(option, problem)))
}

/// A usage error about several options together, worded by the catalogue.
func usage(_ problem: FieldProblem) -> ValidationError { ValidationError(catalogue.text(problem)) }

extension CatalogueEntry {
    /// The book as messages name it.
    var name: BookName { BookName(id, title: details.title) }
}

extension Page {
    /// The line under a table of this page: `1-20 of 45 (next page: --offset 20, or --all)`.
    var footer: String { footer(walkable: true) }

    /// The line under a table of this page, naming `--all` when the command has it; `next`, when
    /// given, is the next page's offset in place of the page's own (a search's stops early).
    func footer(walkable: Bool, nextOffset next: Int?? = nil) -> String {
        items.isEmpty
            ? say(.nothingOnThisPage(total: total))
            : say(.page(first: offset + 1, last: offset + items.count, total: total, nextOffset: next ?? nextOffset, walkable: walkable))
    }
}
