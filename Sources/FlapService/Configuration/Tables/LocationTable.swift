import FlapCore
import FlapDisplay
import FlapHardware
import FlapHeartRate
import FlapJSON
import FlapMQTT
import FlapMQTTClient
import FlapMessaging
import FlapRooms
import FlapSources
import FlapTOML
import FlapTime
import FlapVestaboard
import FoundationEssentials
import Wematch

/// `[location]`: where the board is, for sunrise and sunset.
extension ConfigurationParser {
    /// `[location] latitude = 52.52, longitude = 13.40`: degrees, north and east positive.
    static func parseLocation(_ reader: inout TableReader) -> GeoLocation? {
        defer { reader.finish() }
        let latitude = reader.number("latitude"), longitude = reader.number("longitude")
        guard let latitude, let longitude else {
            reader.fail("latitude", .needs("[location]", "latitude and longitude in degrees, such as latitude = 52.52 and longitude = 13.40"))
            return nil
        }
        if !(-90...90).contains(latitude) {
            reader.fail("latitude", .outOfRange(given: "\(latitude)", allowed: "-90 to 90 (degrees, north positive)"))
        }
        if !(-180...180).contains(longitude) {
            reader.fail("longitude", .outOfRange(given: "\(longitude)", allowed: "-180 to 180 (degrees, east positive)"))
        }
        return GeoLocation(latitude: latitude, longitude: longitude)
    }
}
