import FlapPrimitives

/// Names for members who did not choose one: `cosmic_narwhal0042`, from 100 adjectives, 100
/// animals and four digits, seeded by the member's id and unique in the room.
public enum MemberNames {
    /// The adjectives, separated by spaces.
    public static let adjectives = """
        agile amber ancient arctic autumn azure bold brave breezy bright brisk calm candid cheerful \
        clever cosmic crimson curious dapper daring dazzling eager electric elegant emerald epic \
        fabled fearless fiery flying fond frosty gentle giddy gleaming golden graceful grand happy \
        hardy hazel honest humble icy indigo jolly jovial keen kind lively lucky lunar magic mellow \
        merry mighty misty modest noble nimble oaken opal patient peppy plucky polar proud quick \
        quiet radiant rapid rosy royal rustic sandy scarlet serene shiny silent silver sleek smooth \
        snowy solar sparkly spry starry steady stellar sunny swift tidy tranquil upbeat velvet \
        vivid warm wild witty zesty
        """.split(separator: " ").map(String.init)

    /// The animals, separated by spaces.
    public static let animals = """
        albatross alpaca antelope badger beaver bison bobcat buffalo camel capybara caribou cheetah \
        chinchilla cobra condor cougar coyote crane dingo dolphin dormouse eagle egret elephant elk \
        falcon ferret finch flamingo fox gazelle gecko gibbon giraffe gopher gorilla hedgehog heron \
        hippo hummingbird ibis iguana impala jackal jaguar kangaroo kestrel kiwi koala lemur leopard \
        llama lynx macaw manatee marmot meerkat mongoose moose narwhal newt ocelot octopus orca osprey \
        otter owl panda panther parrot pelican penguin platypus puffin quail quokka rabbit raccoon \
        raven reindeer salamander seal sparrow squirrel starling stingray swan tapir tiger toucan \
        turtle walrus warthog weasel whale wolf wombat yak zebra bear
        """.split(separator: " ").map(String.init)

    /// A name for `id` that no one in `taken` has.
    public static func name(for id: MemberID, avoiding taken: Set<String>) -> String {
        var random = SeededRandom(seed: FNV1a.hash(id))
        while true {
            let adjective = adjectives[Int(random.next() % UInt64(adjectives.count))]
            let animal = animals[Int(random.next() % UInt64(animals.count))]
            let number = Int(random.next() % 10_000)
            let digits = String(number)
            let name = "\(adjective)_\(animal)\(String(repeating: "0", count: 4 - digits.count))\(digits)"
            if !taken.contains(name) { return name }
        }
    }
}
