import HTTPTypes

/// Every endpoint flapd serves, each declared once. The router serves exactly these (a test holds
/// it to this table and to openapi.json); flapctl and the MCP tools call them by name. The
/// Vestaboard Local API, on its own port with Vestaboard's paths, is not here.
extension Endpoint {
    /// Where the versioned API's paths start; the router groups its keyed routes under it.
    public static let versionPrefix = "/v1"

    // Beside the API.
    /// Whether flapd is up.
    public static let health = Endpoint("health", .get, "/healthz", answer: .json("Health"))
    /// The Prometheus metrics.
    public static let metrics = Endpoint("metrics", .get, "/metrics", answer: .media("text/plain"))
    /// The OpenAPI description of this API.
    public static let openAPIDescription = Endpoint("openAPIDescription", .get, "/v1/openapi.json", answer: .json("OpenAPIDocument"))
    /// An MCP message (Streamable HTTP).
    public static let mcpMessage = Endpoint("mcpMessage", .post, "/mcp", body: "MCPMessage", answer: .json("MCPAnswer"))
    /// An MCP session's event stream.
    public static let mcpStream = Endpoint("mcpStream", .get, "/mcp", answer: .media("text/event-stream"))
    /// An MCP session ended.
    public static let mcpEndSession = Endpoint("mcpEndSession", .delete, "/mcp")

    // The board.
    /// Every panel's board.
    public static let board = Endpoint("board", .get, "/v1/board", answer: .json("Board"))
    /// A panel's board as a PNG picture.
    public static let boardPNG = Endpoint("boardPNG", .get, "/v1/board.png", answer: .media("image/png"))
    /// A panel's board as an SVG picture.
    public static let boardSVG = Endpoint("boardSVG", .get, "/v1/board.svg", answer: .media("image/svg+xml"))
    /// The boards as they change (server-sent events).
    public static let events = Endpoint("events", .get, "/v1/events", answer: .media("text/event-stream"))
    /// flapd's state: panels, sound, room, messages.
    public static let status = Endpoint("status", .get, "/v1/status", answer: .json("Status"))
    /// A text laid out as the board would show it, sending nothing.
    public static let layout = Endpoint("layout", .post, "/v1/layout", body: "LayoutRequest", answer: .json("Layout"))
    /// The emoji flapd knows and the flaps each becomes.
    public static let emoji = Endpoint("emoji", .get, "/v1/emoji", answer: .json("EmojiTable"))

    // Messages.
    /// A message sent.
    public static let sendMessage = Endpoint("sendMessage", .post, "/v1/messages", body: "Message", answer: .json("Accepted"))
    /// A message not yet shown cancelled.
    public static let cancelMessage = Endpoint("cancelMessage", .delete, "/v1/messages/{id}", answer: .json("Cancellation"))
    /// The messages waiting for their time.
    public static let scheduled = Endpoint("scheduled", .get, "/v1/scheduled", answer: .json("Scheduled"))
    /// The latest receipts.
    public static let receipts = Endpoint("receipts", .get, "/v1/receipts", answer: .json("Receipts"))
    /// One message's receipt.
    public static let receipt = Endpoint("receipt", .get, "/v1/receipts/{id}", answer: .json("Receipt"))
    /// Each sender's latest message.
    public static let slots = Endpoint("slots", .get, "/v1/slots", answer: .json("Slots"))
    /// A sender's slot cleared.
    public static let clearSlot = Endpoint("clearSlot", .delete, "/v1/slots/{sender}")
    /// Every slot cleared.
    public static let clearEverySlot = Endpoint("clearEverySlot", .delete, "/v1/slots", answer: .json("SlotsCleared"))
    /// The temporary message ended early.
    public static let endTemporary = Endpoint("endTemporary", .delete, "/v1/temporary")

    // Quick messages and schedules.
    /// The quick messages.
    public static let templates = Endpoint("templates", .get, "/v1/templates", answer: .json("Templates"))
    /// A quick message saved.
    public static let saveTemplate = Endpoint("saveTemplate", .put, "/v1/templates/{name}", body: "Message", answer: .json("Template"))
    /// A quick message saved from what the board shows.
    public static let saveTemplateFromBoard = Endpoint(
        "saveTemplateFromBoard", .post, "/v1/templates/{name}/from-board", body: "TemplateFromBoard", answer: .json("Template"))
    /// A quick message renamed.
    public static let renameTemplate = Endpoint(
        "renameTemplate", .post, "/v1/templates/{name}/rename", body: "TemplateRename", answer: .json("TemplateRenamed"))
    /// A quick message sent.
    public static let sendTemplate = Endpoint("sendTemplate", .post, "/v1/templates/{name}/send", body: "TemplateSend", answer: .json("Accepted"))
    /// A quick message deleted.
    public static let deleteTemplate = Endpoint("deleteTemplate", .delete, "/v1/templates/{name}")
    /// The schedules.
    public static let schedules = Endpoint("schedules", .get, "/v1/schedules", answer: .json("Schedules"))
    /// A schedule added.
    public static let addSchedule = Endpoint("addSchedule", .post, "/v1/schedules", body: "Schedule", answer: .json("Schedule"))
    /// A schedule replaced.
    public static let replaceSchedule = Endpoint("replaceSchedule", .put, "/v1/schedules/{name}", body: "Schedule", answer: .json("Schedule"))
    /// A schedule removed.
    public static let removeSchedule = Endpoint("removeSchedule", .delete, "/v1/schedules/{name}")

    // Content sources.
    /// The sources and what each last fetched.
    public static let sources = Endpoint("sources", .get, "/v1/sources", answer: .json("Sources"))
    /// One source.
    public static let source = Endpoint("source", .get, "/v1/sources/{name}", answer: .json("Source"))
    /// A source fetched now.
    public static let refreshSource = Endpoint("refreshSource", .post, "/v1/sources/{name}/refresh", answer: .json("SourceRefresh"))
    /// Values pushed to a webhook source.
    public static let pushToSource = Endpoint("pushToSource", .post, "/v1/sources/{name}", body: "SourceValues", answer: .json("Source"))

    // Real Vestaboards' delivery queue.
    /// The deliveries waiting or failed.
    public static let queue = Endpoint("queue", .get, "/v1/queue", answer: .json("Deliveries"))
    /// A failed delivery tried again.
    public static let retryDelivery = Endpoint("retryDelivery", .post, "/v1/queue/{id}/retry", answer: .json("DeliveryRetried"))
    /// A delivery dropped.
    public static let dropDelivery = Endpoint("dropDelivery", .delete, "/v1/queue/{id}", answer: .json("DeliveryDropped"))

    // The household.
    /// Signing in on the page.
    public static let signIn = Endpoint("signIn", .post, "/v1/session", body: "SignIn", answer: .json("Session"))
    /// Who is signed in.
    public static let session = Endpoint("session", .get, "/v1/session", answer: .json("Session"))
    /// Signing out.
    public static let signOut = Endpoint("signOut", .delete, "/v1/session")
    /// Whether the board has an owner yet.
    public static let setupState = Endpoint("setupState", .get, "/v1/setup", answer: .json("SetupState"))
    /// The board claimed with the code it shows.
    public static let claimBoard = Endpoint("claimBoard", .post, "/v1/setup/claim", body: "BoardClaim", answer: .json("Session"))
    /// A new code on the board, to hand it over.
    public static let newSetupCode = Endpoint("newSetupCode", .post, "/v1/setup/code", answer: .json("SetupCodeShown"))
    /// The members.
    public static let members = Endpoint("members", .get, "/v1/members", answer: .json("Members"))
    /// A member added.
    public static let addMember = Endpoint("addMember", .post, "/v1/members", body: "NewMember", answer: .json("MemberAdded"))
    /// A member removed.
    public static let removeMember = Endpoint("removeMember", .delete, "/v1/members/{id}", answer: .json("Removal"))
    /// A removed member restored.
    public static let restoreMember = Endpoint("restoreMember", .post, "/v1/members/{id}/restore", answer: .json("Member"))
    /// A member's invitation link.
    public static let inviteMember = Endpoint(
        "inviteMember", .post, "/v1/members/{id}/invitation", body: "InvitationRequest", answer: .json("Invitation"))
    /// A member's key replaced.
    public static let replaceMemberKey = Endpoint("replaceMemberKey", .post, "/v1/members/{id}/keys", answer: .json("MemberKey"))
    /// A pairing link for the owner's phone.
    public static let pair = Endpoint("pair", .post, "/v1/pairing", body: "PairingRequest", answer: .json("Invitation"))
    /// The read-only viewer link.
    public static let viewerLink = Endpoint("viewerLink", .get, "/v1/viewer", answer: .json("ViewerLink"))
    /// Who is home.
    public static let presence = Endpoint("presence", .get, "/v1/presence", answer: .json("Presence"))
    /// A person's presence or its sharing set.
    public static let setPresence = Endpoint("setPresence", .patch, "/v1/presence", body: "PresenceChange", answer: .json("Presence"))

    // The appliance.
    /// Paused, and the transition.
    public static let controls = Endpoint("controls", .get, "/v1/controls", answer: .json("Controls"))
    /// Paused or the transition changed.
    public static let setControls = Endpoint("setControls", .patch, "/v1/controls", body: "ControlsChange", answer: .json("Controls"))
    /// The sound's settings and state.
    public static let sound = Endpoint("sound", .get, "/v1/sound", answer: .json("Sound"))
    /// The sound's settings changed.
    public static let setSound = Endpoint("setSound", .patch, "/v1/sound", body: "SoundChange", answer: .json("Sound"))
    /// The clack as a WAV file.
    public static let clackSample = Endpoint("clackSample", .get, "/v1/sound/clack.wav", answer: .media("audio/wav"))
    /// The heart-rate sensors.
    public static let sensors = Endpoint("sensors", .get, "/v1/sensors", answer: .json("Sensors"))
    /// A panel's calibration.
    public static let calibration = Endpoint("calibration", .get, "/v1/panels/{id}/calibration", answer: .json("Calibrated"))
    /// A module's offset calibrated.
    public static let calibrate = Endpoint("calibrate", .post, "/v1/panels/{id}/calibration", body: "CalibrationRequest", answer: .json("Calibrated"))
    /// The commands a panel's modules take, as its driver declares them.
    public static let moduleCommands = Endpoint("moduleCommands", .get, "/v1/panels/{id}/modules", answer: .json("ModuleCommands"))
    /// A command to one module of a panel.
    public static let moduleCommand = Endpoint("moduleCommand", .post, "/v1/panels/{id}/modules", body: "ModuleCommand", answer: .json("ModuleReply"))
    /// Where the numbering of a wall's modules stands (`?ask=true` asks each place first).
    public static let numbering = Endpoint("numbering", .get, "/v1/panels/{id}/numbering", answer: .json("ModuleNumbering"))
    /// A module with no place made to show the mark.
    public static let markModule = Endpoint(
        "markModule", .post, "/v1/panels/{id}/numbering/mark", body: "NumberingMark", answer: .json("ModuleNumbering"))
    /// A module given the ID of the place it hangs at.
    public static let placeModule = Endpoint(
        "placeModule", .post, "/v1/panels/{id}/numbering/place", body: "NumberingPlace", answer: .json("ModuleNumbering"))

    /// The search of a bus's addresses for its modules under way, or the last one.
    public static let moduleSearch = Endpoint("moduleSearch", .get, "/v1/panels/{id}/modules/search", answer: .json("ModuleSearchState"))
    /// Each address of a range asked for its module (an SBB wall's).
    public static let searchModules = Endpoint(
        "searchModules", .post, "/v1/panels/{id}/modules/search", body: "ModuleSearchRequest", answer: .json("ModuleSearch"))

    /// Each module turned to a blade named by its label or index (an SBB wall's).
    public static let showBlades = Endpoint("showBlades", .post, "/v1/panels/{id}/blades", body: "BladesRequest", answer: .json("BladesShown"))

    /// The serial ports and devices of this machine, and what the last search found.
    public static let hardware = Endpoint("hardware", .get, "/v1/hardware", answer: .json("Hardware"))
    /// Every free serial port asked with each driver's greeting ("Find my board").
    public static let searchHardware = Endpoint(
        "searchHardware", .post, "/v1/hardware/search", body: "HardwareSearchRequest", answer: .json("FoundHardware"))
    /// A Vestaboard asked for at an address, and its Local API turned on.
    public static let findVestaboard = Endpoint(
        "findVestaboard", .post, "/v1/hardware/vestaboard", body: "VestaboardSearch", answer: .json("VestaboardFound"))
    /// Heart-rate straps listened for.
    public static let findStraps = Endpoint("findStraps", .post, "/v1/hardware/straps", body: "StrapSearch", answer: .json("StrapsFound"))

    /// Every setting, with its value and where the value comes from.
    public static let settings = Endpoint("settings", .get, "/v1/settings", answer: .json("Settings"))
    /// Settings changed from the page, kept over flapd.toml and applied.
    public static let changeSettings = Endpoint("changeSettings", .patch, "/v1/settings", body: "SettingsChange", answer: .json("Settings"))

    // The Wematch room.
    /// The room this kiosk is in.
    public static let room = Endpoint("room", .get, "/v1/room", answer: .json("Room"))
    /// A room joined or opened.
    public static let joinRoom = Endpoint("joinRoom", .post, "/v1/room", body: "RoomJoin", answer: .json("Room"))
    /// The room left.
    public static let leaveRoom = Endpoint("leaveRoom", .delete, "/v1/room", answer: .json("RoomLeft"))
    /// The room's plot, for the page.
    public static let roomPlot = Endpoint("roomPlot", .get, "/v1/room/plot", answer: .json("RoomPlot"))
    /// The room's plot as a picture in text.
    public static let roomPicture = Endpoint("roomPicture", .get, "/v1/room/picture", answer: .media("text/plain"))

    /// The whole table, in the order above.
    public static let all: [Endpoint] = [
        health, metrics, openAPIDescription, mcpMessage, mcpStream, mcpEndSession,
        board, boardPNG, boardSVG, events, status, layout, emoji,
        sendMessage, cancelMessage, scheduled, receipts, receipt, slots, clearSlot, clearEverySlot, endTemporary,
        templates, saveTemplate, saveTemplateFromBoard, renameTemplate, sendTemplate, deleteTemplate,
        schedules, addSchedule, replaceSchedule, removeSchedule,
        sources, source, refreshSource, pushToSource,
        queue, retryDelivery, dropDelivery,
        signIn, session, signOut, setupState, claimBoard, newSetupCode, members, addMember, removeMember, restoreMember, inviteMember,
        replaceMemberKey, pair, viewerLink,
        presence, setPresence,
        controls, setControls, sound, setSound, clackSample, sensors, calibration, calibrate, moduleCommands, moduleCommand,
        numbering, markModule, placeModule, moduleSearch, searchModules, showBlades,
        hardware, searchHardware, findVestaboard, findStraps, settings, changeSettings,
        room, joinRoom, leaveRoom, roomPlot, roomPicture
    ]
}
