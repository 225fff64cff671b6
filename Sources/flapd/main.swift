import FlapService

await Flapd.runMain()
