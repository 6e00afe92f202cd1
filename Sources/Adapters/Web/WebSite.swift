import Application
import Hummingbird

/// The library's web pages: server-rendered HTML forms over the same use cases as the API and
/// the CLI. Every action calls a use case; every refusal is the domain's, in the catalogue's words.
public enum WebSite {
    /// The router serving the pages, the stylesheet and the script.
    public static func router<Context: RequestContext & RemoteAddressRequestContext>(
        library: Library, settings: WebSettings = WebSettings(), context: Context.Type = Context.self
    ) throws -> Router<Context> {
        let pages = try Pages(siteName: settings.siteName)
        let files = try StaticFiles()
        let router = Router(context: Context.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: VisitMiddleware(library: library, settings: settings))
        router.add(middleware: PageErrors(pages: pages))
        router.add(middleware: PageRates(library: library))
        router.add(middleware: FormMiddleware(maxBytes: settings.maxFormBytes))
        router.get("/static/{name}") { _, context in try files.response(try context.parameters.require("name")) }
        router.get(RouterPath(LanguageChoice.path)) { request, _ in LanguageChoice.choose(request, secure: Visit.current.secure) }
        let site = Site(library: library, pages: pages, settings: settings)
        EntryPages(site: site).register(on: router)
        CataloguePages(site: site).register(on: router)
        SearchPages(site: site).register(on: router)
        MemberActions(site: site).register(on: router)
        BookmarkPages(site: site).register(on: router)
        LoanPages(site: site).register(on: router)
        HoldPages(site: site).register(on: router)
        NoticePages(site: site).register(on: router)
        AccountPages(site: site).register(on: router)
        BookFormPages(site: site).register(on: router)
        BookImportPages(site: site).register(on: router)
        WithdrawPages(site: site).register(on: router)
        DeskPages(site: site).register(on: router)
        DeskActions(site: site).register(on: router)
        MembersPages(site: site).register(on: router)
        AuditPages(site: site).register(on: router)
        return router
    }

    /// Whether `response` is the pages' "no such page" for a path no page has (not a book or a
    /// loan that does not exist), with its mark taken off: another responder may answer instead.
    public static func isUnrouted(_ response: inout Response) -> Bool {
        guard response.headers[.unrouted] != nil else { return false }
        response.headers[.unrouted] = nil
        return true
    }
}
