import Application
import Foundation
import IPinfo
import NIOCore
import RESTCountries
import Synchronization
import Testing

/// A country list store in memory, to see what the live adapter keeps.
final class MemoryCountryList: CountryListStore, Sendable {
    let stored = Mutex<[Country]?>(nil)
    func load() async throws -> [Country]? { stored.withLock { $0 } }
    func save(_ countries: [Country]) async throws { stored.withLock { $0 = countries } }
}

@Suite("REST Countries adapter against a loopback fake")
struct RESTCountriesTests {
    /// Found by an outside walk: a list kept for good took codes `<S` and `ÉÉ`, let a later `fr`
    /// replace France, kept a direction override, and one `"fra": null` lost the whole list.
    @Test func aHostileListKeepsOnlyWhatReadsAsCountries() async throws {
        let list = #"""
            [{"cca2":"FR","name":{"common":"France"},"translations":{"fra":{"common":"France"}}},
             {"cca2":"fr","name":{"common":"lower france"}}, {"cca2":"FR","name":{"common":"Second France"}},
             {"cca2":"<s","name":{"common":"Script"}}, {"cca2":"ÉÉ","name":{"common":"Accents"}},
             {"cca2":"GB","name":{"common":"United ‮Kingdom"},"translations":{"fra":null}},
             {"cca2":"DE","name":{"common":"\u0007"}}, {"cca2":"DE"},
             {"cca2":"DE","name":{"common":"Germany"},"translations":{"fra":{"common":null}}}, {"cca2":7}]
            """#
        let upstream = OpenLibraryHostileTests.Scripted(["/v3.1/all": .init(body: list)])
        try await upstream.run { base in
            let store = MemoryCountryList()
            let all = try await RESTCountriesDirectory(baseURL: base, store: store, timeout: .seconds(60)).all()
            #expect(
                all == [
                    Country(code: "FR", name: "France", frenchName: "France"), Country(code: "DE", name: "Germany", frenchName: nil),
                    Country(code: "GB", name: "United Kingdom", frenchName: nil),
                ])
            upstream.answers.withLock { $0["/v3.1/all"] = .init(body: #"[{"cca2":"<s","name":{"common":"x"}}]"#) }
            await #expect(throws: CountryListUnavailable.self, "nothing readable is no list to keep") {
                try await RESTCountriesDirectory(baseURL: base, store: MemoryCountryList(), timeout: .seconds(60)).all()
            }
        }
    }

    @Test func loadsOnceWithFieldsNormalisesCodesAndKeepsTheList() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            let store = MemoryCountryList()
            let directory = RESTCountriesDirectory(baseURL: base + "/ok", store: store, timeout: .seconds(60))
            let all = try await directory.all()
            #expect(all.count == 250)
            #expect(try await directory.country("de") == Country(code: "DE", name: "Germany", frenchName: "Allemagne"))
            #expect(try await directory.country("fr")?.name == "France")
            _ = try await directory.all()
            #expect(fake.requests.withLock { $0 } == ["/ok/v3.1/all?fields=name,cca2,translations"])
            #expect(store.stored.withLock { $0?.count } == 250)

            // A new process with the list stored never asks the network again, even when it is down.
            let offline = RESTCountriesDirectory(baseURL: base + "/error", store: store)
            #expect(try await offline.country("GB")?.name == "United Kingdom")
            #expect(fake.requests.withLock { $0.count } == 1)
        }
    }

    @Test(arguments: ["garbage", "error"])
    func badAnswersAreClearErrorsAndStoreNothing(mode: String) async throws {
        try await FakeUpstreams().run { base in
            let store = MemoryCountryList()
            await #expect(throws: CountryListUnavailable.self) {
                try await RESTCountriesDirectory(baseURL: base + "/" + mode, store: store).all()
            }
            #expect(store.stored.withLock { $0 } == nil)
        }
    }

    @Test func aHangingServerTimesOut() async throws {
        try await FakeUpstreams().run { base in
            await #expect(throws: CountryListUnavailable.self) {
                try await RESTCountriesDirectory(baseURL: base + "/hang", store: MemoryCountryList(), timeout: .milliseconds(300)).all()
            }
            // The fake answers well after 3 s: failing (not its answer) proves the timeout fired.
            // No wall-clock bound here: a loaded CI machine is slow, not wrong.
        }
    }
}

/// Tests that are not about timeouts give the fake 10 s: a loaded CI machine is slow, not wrong.
@Suite("IPinfo adapter against a loopback fake")
struct IPinfoTests {
    @Test(
        "recorded answers give their country",
        arguments: [
            ("8.8.8.8", "US"), ("195.233.174.116", "DE"), ("178.132.108.38", "RO"),
            ("2601:9:7680:363:75df:f491:6f85:352f", "US"), ("f4bc:bab1:4d39:9c0b:8797:a867:e6ce:6629", nil),
        ])
    func countries(ip: String, country: String?) async throws {
        try await FakeUpstreams().run { base in
            #expect(await IPinfoGeolocator(baseURL: base + "/ok", token: "t0ken", timeout: .seconds(10)).country(for: ip) == country)
        }
    }

    @Test func privateLoopbackLinkLocalAndBogonAddressesNeverLeaveTheMachine() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            let geo = IPinfoGeolocator(baseURL: base + "/ok", timeout: .seconds(10))
            for ip in [
                "127.0.0.1", "10.1.2.3", "192.168.1.199", "172.20.0.1", "169.254.1.1", "100.64.0.1", "::1", "fe80::1",
                "fd00::1", "2001:db8::42", "::ffff:192.168.0.1", "0.0.0.0", "not an ip", "8.8.8.8/../x",
            ] {
                #expect(await geo.country(for: ip) == nil, "\(ip)")
            }
            #expect(fake.requests.withLock { $0 }.isEmpty)
        }
    }

    @Test(arguments: ["garbage", "error"])
    func failuresAreUnknown(mode: String) async throws {
        try await FakeUpstreams().run { base in
            #expect(await IPinfoGeolocator(baseURL: base + "/" + mode, timeout: .seconds(10)).country(for: "8.8.8.8") == nil)
        }
    }

    @Test func aHangingServerIsUnknownWithinTheTimeout() async throws {
        try await FakeUpstreams().run { base in
            #expect(await IPinfoGeolocator(baseURL: base + "/hang", timeout: .milliseconds(300)).country(for: "8.8.8.8") == nil)
            // The fake answers well after 3 s: failing (not its answer) proves the timeout fired.
            // No wall-clock bound here: a loaded CI machine is slow, not wrong.
        }
    }

    @Test func bogonAnswersAreUnknown() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            #expect(await IPinfoGeolocator(baseURL: base + "/bogon", timeout: .seconds(10)).country(for: "8.8.8.8") == nil)
            #expect(fake.requests.withLock { $0 } == ["/bogon/8.8.8.8/json"])
        }
    }
}

@Suite("Live adapters wired by the composition root")
struct LiveAdapterCompositionTests {
    @Test func theDefaultCountryComesFromTheForwardedAddressOfATrustedProxy() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(
                mode: .live,
                configure: {
                    $0.geoURL = base + "/ok"
                    $0.countriesURL = base + "/ok"
                    $0.trustedProxies = ["127.0.0.1"]
                }
            ) { api in
                let guess = try await api.client.execute(
                    uri: "/api/v1/countries/default", method: .get, headers: [.init("X-Forwarded-For")!: "10.0.0.7, 178.132.108.38"])
                #expect(try guess.object["code"] as? String == "RO")
                var names = ""
                for offset in stride(from: 0, to: 300, by: 100) {
                    names += try await api.send(.get, "/api/v1/countries?limit=100&offset=\(offset)", token: .none).text
                }
                #expect(names.contains("\"Kosovo\""))  // REST Countries' list, not the bundled one
            }
            #expect(fake.requests.withLock { $0 }.contains("/ok/178.132.108.38/json"))
        }
    }

    @Test func anUntrustedPeerCannotForgeItsAddress() async throws {
        let fake = FakeUpstreams()
        try await fake.run { base in
            try await withAPI(mode: .live, configure: { $0.geoURL = base + "/ok" }) { api in
                let guess = try await api.client.execute(
                    uri: "/api/v1/countries/default", method: .get, headers: [.init("X-Forwarded-For")!: "178.132.108.38"])
                #expect(guess.status == .noContent)  // the peer is 127.0.0.1: private, never asked
            }
            #expect(fake.requests.withLock { $0 }.isEmpty)
        }
    }
}
