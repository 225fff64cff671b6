import FoundationEssentials
import Glibc

/// Where the board is, for schedules that follow the sun (`[location]` in flapd.toml).
public struct GeoLocation: Sendable, Equatable, Codable {
    /// Degrees, north positive.
    public var latitude: Double
    /// Degrees, east positive.
    public var longitude: Double

    /// The place at `latitude`, `longitude`.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Sunrise and sunset by NOAA's solar equations (the Global Monitoring Laboratory's solar
/// calculator: the sun's apparent longitude, the equation of time and the hour angle at which
/// its upper limb meets the horizon, refraction included), computed here: a few lines of
/// arithmetic, which no package on this machine offers without Foundation. Within a minute of
/// NOAA's figures between the polar circles; nil on a day of polar night (no sunrise) or of
/// midnight sun (no sunset).
public enum SunTimes {
    /// Sunrise or sunset.
    public enum Event: String, Sendable, Equatable, Codable {
        case sunrise, sunset
    }

    /// The instant of `event` on the civil day `day` (days since 1970-01-01, as the board's
    /// calendar counts them) at `location`, or nil when the sun does not cross the horizon then.
    public static func instant(of event: Event, day: Int64, at location: GeoLocation) -> Date? {
        // Twice: the second time with the sun's position at the first answer, as NOAA's
        // calculator refines it.
        var minutes = 720 - 4 * location.longitude
        for _ in 0..<2 {
            guard let found = utcMinutes(of: event, day: day, at: location, near: minutes) else { return nil }
            minutes = found
        }
        return Date(timeIntervalSince1970: Double(day) * 86_400 + minutes * 60)
    }

    /// Minutes after 00:00 UTC of `day` (negative or past 1440 when the event falls on the day
    /// before or after in UTC), with the sun's position taken at `near` minutes.
    static func utcMinutes(of event: Event, day: Int64, at location: GeoLocation, near: Double) -> Double? {
        let julianDay = Double(day) + 2_440_587.5 + near / 1440
        let t = (julianDay - 2_451_545) / 36_525
        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let center =
            sin(radians(meanAnomaly)) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(radians(2 * meanAnomaly)) * (0.019993 - 0.000101 * t) + sin(radians(3 * meanAnomaly)) * 0.000289
        let omega = 125.04 - 1934.136 * t
        let apparentLongitude = meanLongitude + center - 0.00569 - 0.00478 * sin(radians(omega))
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = meanObliquity + 0.00256 * cos(radians(omega))
        let declination = asin(sin(radians(obliquity)) * sin(radians(apparentLongitude)))
        let y = pow(tan(radians(obliquity / 2)), 2)
        let l0 = radians(meanLongitude), m = radians(meanAnomaly)
        let equationOfTime =
            4
            * degrees(
                y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
                    - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m))
        let latitude = radians(location.latitude)
        let cosHourAngle = cos(radians(90.833)) / (cos(latitude) * cos(declination)) - tan(latitude) * tan(declination)
        guard (-1...1).contains(cosHourAngle) else { return nil }
        let hourAngle = degrees(acos(cosHourAngle))
        let noon = 720 - 4 * location.longitude - equationOfTime
        return event == .sunrise ? noon - 4 * hourAngle : noon + 4 * hourAngle
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
