import Composition
import Foundation
import Testing

@Suite("Random ids")
struct RandomIDsTests {
    @Test func idsAreVersion7DistinctAndSurviveRefillsFromManyTasks() async {
        let ids = RandomIDs()
        let all = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0..<8 { group.addTask { (0..<2_000).map { _ in ids.next() } } }
            return await group.reduce(into: [UUID]()) { $0 += $1 }
        }
        #expect(Set(all).count == 16_000)  // 16,000 ids: 62 refills of the 4 KiB pool
        for id in all.prefix(500) {
            let text = id.uuidString.lowercased()
            #expect(text[text.index(text.startIndex, offsetBy: 14)] == "7")
            #expect("89ab".contains(text[text.index(text.startIndex, offsetBy: 19)]))
        }
    }

    @Test func idsMadeLaterSortAfterAndCarryTheirTime() async throws {
        let ids = RandomIDs()
        let before = Date()
        let first = ids.next()
        try await Task.sleep(for: .milliseconds(5))
        let second = ids.next()
        #expect(first.uuidString < second.uuidString)
        let millis = withUnsafeBytes(of: first.uuid) { bytes in bytes.prefix(6).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        #expect(abs(Double(millis) / 1000 - before.timeIntervalSince1970) < 1)
    }
}
