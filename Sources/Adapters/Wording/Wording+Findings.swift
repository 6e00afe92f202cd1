import Application
import Domain

/// What `audit verify` checked and found, in the reader's language (`audit.*` keys). Positions and
/// counts are grouped for the language; paths, hashes, anchor times, and table, column, stream,
/// trigger and event type names are shown as they are.
extension Wording {
    /// A check's name: `hash chain`, `chaîne de hachage`.
    public func text(_ check: AuditCheck.Kind) -> String {
        switch check {
        case .chainKey: t("audit.check.chainKey")
        case .hashChain: t("audit.check.hashChain")
        case .contiguity: t("audit.check.contiguity")
        case .appendOnlyTriggers: t("audit.check.appendOnlyTriggers")
        case .replay: t("audit.check.replay")
        case .personalData: t("audit.check.personalData")
        case .anchors: t("audit.check.anchors")
        case .export: t("audit.check.export")
        case .redactedSecrets: t("audit.check.redactedSecrets")
        case .erasedPersonalData: t("audit.check.erasedPersonalData")
        case .databaseFile: t("audit.check.databaseFile")
        }
    }

    /// What a check found, in one sentence (several problems joined by semicolons).
    public func text(_ finding: AuditFinding) -> String {
        switch finding {
        case .noChainKey: t("audit.noChainKey")
        case .keyNotInUse(let keyedFrom): t("audit.keyNotInUse", n(keyedFrom))
        case .keyNotRecorded(let path, let keyedFrom): t("audit.keyNotRecorded", path, n(keyedFrom))
        case .keyProblem(let problem): integrity(problem)
        case .keyFileGone(let path): t("audit.keyFileGone", path)
        case .keyFileChanged(let path): t("audit.keyFileChanged", path)
        case .keyed(let path, let keyedFrom): t("audit.keyed", path, n(keyedFrom))
        case .anchorFileUnreadable(let path): t("audit.anchorFileUnreadable", path)
        case .noAnchorFile(let path): t("audit.noAnchorFile", path)
        case .notAnAnchor(let line, let path): t("audit.notAnAnchor", n(line), path)
        case .anchorsUncheckable: t("audit.anchorsUncheckable")
        case .wrongSignature(let line, let position): t("audit.wrongSignature", n(line), n(position))
        case .headLacking(let position, let time, let line, let why): t("audit.headLacking", n(position), time, n(line), text(why))
        case .emptyLogHash: t("audit.emptyLogHash")
        case .logCut(let head): t("audit.logCut", n(head))
        case .logRewritten: t("audit.logRewritten")
        case .noAnchorsYet(let path): t("audit.noAnchorsYet", path)
        case .anchorsHeld(let count, let path, let furthest, let time):
            t("audit.anchorsHeld", t("audit.anchors", count: count, n(count)), path, n(furthest), time)
        case .all(let findings): joined(findings.map(text))
        case .fileIntact: t("audit.fileIntact")
        case .fileDamaged(let complaint): t("audit.fileDamaged", complaint)
        case .noEvents: t("audit.noEvents")
        case .allKeyed(let head): t("audit.allKeyed", n(head))
        case .chainedWithoutKey(let head): t("audit.chainedWithoutKey", n(head))
        case .chainedBeforeKeying(let head): t("audit.chainedBeforeKeying", n(head))
        case .partlyKeyed(let plain, let head): t("audit.partlyKeyed", n(plain), n(plain + 1), n(head))
        case .chainBreaks(let position, let stored, let computed, let unkeyedFrom):
            chainBreaks(position: position, stored: stored, computed: computed, unkeyedFrom: unkeyedFrom)
        case .exportChainBreaks(let position): t("audit.exportChainBreaks", n(position))
        case .doesNotFollow(let position, let previous): t("audit.doesNotFollow", n(position), n(previous))
        case .falseRedaction(let position, let type): t("audit.falseRedaction", n(position), type)
        case .exportChained(let events, let streams):
            t("audit.exportChained", t("audit.exportedEvents", count: Int(clamping: events), n(events)), streamsWithoutGaps(streams))
        case .positionMissing(let position, let next): t("audit.positionMissing", n(position), n(next))
        case .versionJumps(let stream, let from, let to, let position): t("audit.versionJumps", stream, n(from), n(to), n(position))
        case .exportVersionJumps(let stream, let to, let position): t("audit.exportVersionJumps", stream, n(to), n(position))
        case .eventsRemoved(let seen, let head): t("audit.eventsRemoved", n(seen), n(head))
        case .contiguous(let events, let streams): t("audit.contiguous", n(events), streamsWithoutGaps(streams))
        case .triggersInPlace: t("audit.triggersInPlace")
        case .triggerMissing(let name): t("audit.triggerMissing", name)
        case .triggerAltered(let name): t("audit.triggerAltered", name)
        case .unexpectedTriggers(let names): t("audit.unexpectedTriggers", names.joined(separator: ", "))
        case .replayStopped(let position, let type, let part): t("audit.replayStopped", n(position), unreadable(part, type))
        case .rowDiffers(let table, let key, let live, let replayed):
            t("audit.rowDiffers", table, key, live, replayed ?? t("audit.noRow"))
        case .rowMissingLive(let table, let key, let replayed): t("audit.rowMissingLive", table, key, replayed)
        case .replayEqual(let events, let readModels):
            t(
                "audit.replayEqual", t("audit.eventsReplayed", count: Int(clamping: events), n(events)),
                t("audit.readModelsEqual", count: readModels, n(readModels)))
        case .personalData(let sealed, let erased, let inClear):
            t(
                "audit.personalData", t("audit.sealedEvents", count: sealed, n(sealed)), t("audit.erasedMembers", count: erased, n(erased)),
                inClear == 0 ? t("audit.noneInClear") : t("audit.inClear", count: inClear, n(inClear)))
        case .personalKeyMissing(let member, let position): t("audit.personalKeyMissing", member, n(position))
        case .erasedWithoutClosing(let member, let position): t("audit.erasedWithoutClosing", member, n(position))
        case .keyAfterErasure(let member, let position): t("audit.keyAfterErasure", member, n(position))
        case .claimNameWrong(let position): t("audit.claimNameWrong", n(position))
        case .erasedUnchecked(let positions): t("audit.erasedUnchecked", count: positions.count, n(positions.count), listed(positions))
        case .secretsUnchecked(let positions): t("audit.secretsUnchecked", count: positions.count, n(positions.count), listed(positions))
        case .notAnExportedEvent(let line): t("audit.notAnExportedEvent", n(line))
        }
    }

    private func chainBreaks(position: Int64, stored: String?, computed: String, unkeyedFrom: Int64?) -> String {
        let breaks = t("audit.chainBreaks", n(position), stored ?? t("audit.nothingStored"), computed)
        return unkeyedFrom.map { t("audit.chainBreaks.unkeyed", breaks, n($0)) } ?? breaks
    }

    /// Problems one after the other: `a; b; c`.
    private func joined(_ texts: [String]) -> String { texts.dropFirst().reduce(texts.first ?? "") { t("audit.andThen", $0, $1) } }

    private func streamsWithoutGaps(_ streams: Int) -> String { t("audit.streamsWithoutGaps", count: streams, n(streams)) }

    /// The first ten positions, then an ellipsis.
    private func listed(_ positions: [Int64]) -> String {
        positions.prefix(10).map { n($0) }.joined(separator: ", ") + (positions.count > 10 ? ", …" : "")
    }

    func unreadable(_ part: AuditFinding.EventPart, _ type: String) -> String {
        switch part {
        case .eventID: t("audit.unreadable.eventID", type)
        case .time: t("audit.unreadable.time", type)
        case .correlationID: t("audit.unreadable.correlationID", type)
        case .causationID: t("audit.unreadable.causationID", type)
        case .payload: t("audit.unreadable.payload", type)
        case .unknownType: t("audit.unreadable.unknownType", type)
        }
    }
}
