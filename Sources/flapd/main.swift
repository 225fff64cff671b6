import FlapLinux
import FlapService

ProcessHeap.keepSlack()
await Flapd.runMain()
