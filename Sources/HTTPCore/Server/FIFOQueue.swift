/// A first-in, first-out list whose `removeFirst` is O(1) amortised (`Array.removeFirst` moves
/// every element behind it): the elements, the index of the first, and the taken slots emptied at
/// once so a taken job's captures are released when it is taken, not when the storage is compacted.
struct FIFOQueue<Element> {
    private var slots: [Element?] = []
    private var head = 0

    var count: Int { slots.count - head }
    var isEmpty: Bool { head == slots.count }

    mutating func append(_ element: Element) { slots.append(element) }

    /// The oldest element, removed; nil when empty.
    mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head]
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= slots.count {
            // Half the storage is taken slots: drop them (a move of the live half, amortised O(1)).
            slots.removeFirst(head)
            head = 0
        }
        return element
    }
}
