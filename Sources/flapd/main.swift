import FlapControl
import FlapLinux
import FlapService

ProcessHeap.keepSlack()
// One binary for both programs: the package installs /usr/bin/flapctl as a link to flapd, so the
// Swift runtime, NIO and the rest are installed and loaded from one file rather than two.
if CommandLine.arguments.first?.split(separator: "/").last == "flapctl" {
    await Flapctl.runMain()
} else {
    await Flapd.runMain()
}
