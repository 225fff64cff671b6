import FlapHeartRate

/// Makes the heart-rate source that settings describe, on its kind's driver.
public enum HeartRateSources {
    /// The source `settings` describe; `seed` varies a simulated one's wearers.
    public static func make(_ settings: SensorSettings, seed: UInt64 = 1) throws -> HeartRateHub.Source {
        if let problem = SensorKinds.problems(settings).first { throw problem }
        guard let kind = SensorKinds.kind(settings.driver) else {
            throw SensorSettingsError.unknownDriver(settings.driver.rawValue, known: SensorKinds.names)
        }
        return try kind.make(settings, seed: seed, clock: ContinuousClock())
    }
}
