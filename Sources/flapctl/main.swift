import FlapControl
import FlapLinux

ProcessHeap.keepSlack()
await Flapctl.runMain()
