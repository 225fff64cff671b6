"""What pulls a static library into flapd: reads the linker's --why-extract file and prints,
for each object of the named libraries, the first object outside them that asked for it, and
the symbol it asked for. Made to find what links ICU (34 MB of data) through Foundation.

    swift build -c release --static-swift-stdlib --product flapd --scratch-path /tmp/lldbuild \\
        -Xswiftc -use-ld=lld -Xlinker --why-extract=/tmp/why-flapd.txt
    python3 Benchmarks/why_linked.py /tmp/why-flapd.txt

(A scratch path of its own: the linker flags change every object's build. gold, the default
linker here, has no --why-extract; lld does.) Only the first request for each object is
recorded by the linker, so fixing one entry may uncover the next.
"""
import collections
import sys

DEFAULT = ["libFoundation.a", "libCoreFoundation.a", "libFoundationInternationalization.a", "lib_FoundationICU.a"]


def library(path):
    return path.split("/")[-1].split("(")[0]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    libraries = set(sys.argv[2:] or DEFAULT)
    first = {}
    with open(sys.argv[1]) as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 3 and fields[1] not in first:
                first[fields[1]] = (fields[0], fields[2])
    entries = collections.defaultdict(list)
    for extracted, (referrer, symbol) in first.items():
        if library(extracted) in libraries and library(referrer) not in libraries:
            entries[referrer.split("/")[-1]].append((extracted.split("(")[-1].rstrip(")"), symbol))
    for referrer, wanted in sorted(entries.items(), key=lambda item: -len(item[1])):
        for extracted, symbol in wanted:
            print(f"{referrer}\t-> {extracted}\t{symbol}")


if __name__ == "__main__":
    main()
