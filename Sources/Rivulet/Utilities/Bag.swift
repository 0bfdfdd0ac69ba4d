/// An unordered collection that hands out a token for each element inserted, so that an element
/// can be removed later even when equal elements (or elements that cannot be compared, such as
/// closures) are in it too (ReactiveSwift's `Bag`).
///
/// Elements stay in insertion order. Inserting and iterating are O(1) per element; removing
/// finds the element in O(log n) and closes the gap in O(n).
public struct Bag<Element> {
    /// Identifies one inserted element of one bag. A token removes at most one element, once.
    public struct Token: Hashable, Sendable {
        fileprivate let identifier: UInt64
    }

    private var elements: ContiguousArray<Element> = []
    private var tokens: ContiguousArray<UInt64> = []
    private var nextIdentifier: UInt64 = 0

    /// An empty bag.
    public init() {}

    /// A bag holding `elements`, in their order.
    ///
    /// - Parameter elements: The elements, in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        for element in elements { insert(element) }
    }

    /// Inserts `value`.
    ///
    /// - Parameter value: The element to add, after the others.
    /// - Returns: The token that removes this element.
    @discardableResult
    public mutating func insert(_ value: Element) -> Token {
        let token = Token(identifier: nextIdentifier)
        nextIdentifier &+= 1
        elements.append(value)
        tokens.append(token.identifier)
        return token
    }

    /// Removes the element that `token` was returned for.
    ///
    /// - Parameter token: The token `insert(_:)` returned.
    /// - Returns: The removed element, or `nil` if it was removed already (a documented no-op).
    @discardableResult
    public mutating func remove(using token: Token) -> Element? {
        // Tokens are increasing, and removal keeps the order, so the newest element is at the end
        // and a binary search finds any other.
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low + high) / 2
            if tokens[middle] < token.identifier { low = middle + 1 } else { high = middle }
        }
        guard low < tokens.count, tokens[low] == token.identifier else { return nil }
        tokens.remove(at: low)
        return elements.remove(at: low)
    }
}

extension Bag: RandomAccessCollection {
    /// The position of the first element.
    public var startIndex: Int { elements.startIndex }

    /// The position after the last element.
    public var endIndex: Int { elements.endIndex }

    /// The element at `position`.
    ///
    /// - Parameter position: A valid index of the bag.
    /// - Returns: The element at `position`.
    public subscript(position: Int) -> Element { elements[position] }
}

extension Bag: Sendable where Element: Sendable {}
