import Mustache

// The values the busiest templates read, by name. Mustache otherwise finds each one through
// `Mirror`, a reflection per lookup: the catalogue page (twenty books, a dozen values each) spent
// most of its time there. A name not listed here is looked up in the enclosing context, as usual.

/// A value that is there and empty: a section on it is skipped and an inverted one rendered, and
/// the lookup stops here instead of climbing the context stack (through `Mirror`) to find nothing.
struct Absent: MustacheCustomRenderable {
    var renderText: String { "" }
    var isNull: Bool { true }
}

extension Optional {
    /// The value, or `Absent` when there is none.
    var orAbsent: Any { self.map { $0 as Any } ?? Absent() }
}

extension Rendered: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "frame": return frame
        case "page": return page
        default: return nil
        }
    }
}

extension Frame: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": return title
        case "siteName": return siteName
        case "loggedIn": return loggedIn
        case "librarian": return librarian
        case "displayName": return displayName.orAbsent
        case "unread": return unread
        case "flash": return flash.orAbsent
        case "flashRefused": return flashRefused
        case "csrf": return csrf
        case "target": return target
        case "meta": return meta.orAbsent
        case "lang": return lang
        case "ogLocale": return ogLocale
        case "languages": return languages
        case "unreadLabel": return unreadLabel
        case "footer": return footer
        default: return nil
        }
    }
}

extension LanguageLink: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "code": return code
        case "name": return self.name
        case "href": return href
        case "current": return current
        default: return nil
        }
    }
}

extension BookCell: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": return id
        case "title": return title
        case "authors": return authors
        case "cover": return cover.orAbsent
        case "available": return available
        case "copies": return copies
        case "waiting": return waiting
        case "isAvailable": return isAvailable
        case "hasWaiting": return hasWaiting
        case "availability": return availability
        case "waitingText": return waitingText
        case "coverAlt": return coverAlt
        case "lastCheckout": return lastCheckout.orAbsent
        default: return nil
        }
    }
}

extension CatalogueView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "books": return books
        case "total": return total
        case "query": return query
        case "hasQuery": return hasQuery
        case "openLibraryLink": return openLibraryLink
        case "availableOnly": return availableOnly
        case "sorts": return sorts
        case "pager": return pager
        case "member": return member
        case "librarian": return librarian
        case "isEmpty": return isEmpty
        case "feedback": return feedback
        case "bookItems": return bookItems
        default: return nil
        }
    }
}

extension SortOption: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": return value
        case "label": return label
        case "selected": return selected
        default: return nil
        }
    }
}

extension Pager: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "previous": return previous.orAbsent
        case "next": return next.orAbsent
        case "range": return range.orAbsent
        default: return nil
        }
    }
}

extension Feedback: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "top": return top.orAbsent
        case "items": return items
        case "hasErrors": return hasErrors
        case "fields": return fields
        case "values": return values
        default: return nil
        }
    }
}
