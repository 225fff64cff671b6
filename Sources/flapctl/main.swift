import FlapControl

await Flapctl.runMain()
