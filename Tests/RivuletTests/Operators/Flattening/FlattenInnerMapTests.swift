import Testing
@testable import Rivulet
import RivuletContracts

/// The running inner streams of a flattening: a sorted array of IDs with the first stored inline.
@Suite(.checksLiveObjects) struct FlattenInnerMapTests {
    @Test func findsAndRemovesAnyEntryAmongMany() {
        var map = FlattenInnerMap<String>()
        for id in FlattenInnerID(0)..<100 where id % 3 != 0 { map.append(id, "v\(id)") }
        #expect(map.count == 66)
        #expect(map.contains(1) && map.contains(98) && !map.contains(3) && !map.contains(100))
        #expect(map.remove(50) == "v50")
        #expect(map.remove(50) == nil)
        #expect(map.remove(1) == "v1", "the inline first entry")
        #expect(map.contains(2), "the next entry became the first")
        #expect(map.remove(98) == "v98")
        #expect(map.count == 63)
        #expect(Array(map.ids) == (FlattenInnerID(0)..<98).filter { $0 % 3 != 0 && $0 != 1 && $0 != 50 })
    }

    @Test func oneEntryAtATimeIsHandedOverWithoutAnArray() {
        var map = FlattenInnerMap<Void>()
        map.append(7, ())
        let ids = map.ids
        #expect(ids.first == 7 && ids.rest.isEmpty)
        map.removeAll()
        #expect(map.isEmpty && map.ids.isEmpty)
        map.append(8, ())
        #expect(map.contains(8) && !map.contains(7))
    }

    @Test func forEachVisitsTheIDsInOrder() {
        var map = FlattenInnerMap<Void>()
        for id in FlattenInnerID(10)..<15 { map.append(id, ()) }
        var visited: [FlattenInnerID] = []
        map.ids.forEach { visited.append($0) }
        #expect(visited == [10, 11, 12, 13, 14])
    }
}
