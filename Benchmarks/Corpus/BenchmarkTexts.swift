/// Typical messages, laid out by the benchmarks (`flapbench`, the instruction counts) and
/// compared with vesta on the same texts.
public enum BenchmarkTexts {
    /// Short messages of the kinds people send: greetings, times, codes, emoji.
    public static let typical = [
        "GOOD MORNING",
        "Hello World",
        "Meeting at 3:30 in the big room",
        "{63}{64}{65}{66}{67}{68} WEEKEND {68}{67}{66}{65}{64}{63}",
        "Weather: 18° and sunny\nHigh 24° Low 12°\nWind 10 km/h",
        "The only way to do great work is to love what you do. - Steve Jobs",
        "Train to Zurich\n12:04 Platform 7\nDelayed 5 min",
        "Happy birthday Alex! {66}{66}{66}",
        "Doors close in 5 minutes",
        "Don't forget: recycling goes out tonight, bins by the gate",
        "A1 B2 C3 D4 E5 F6 G7 H8 I9 J0",
        "multiple\nlines\nof\ntext"
    ]
}
