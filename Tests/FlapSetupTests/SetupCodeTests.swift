import FlapSetup
import Testing

@Suite struct SetupCodeTests {
    @Test func noCodeIsOneAPersonWouldGuessFirst() {
        for trivial in ["00000000", "11111111", "99999999", "12345678", "87654321", "23456789", "01234567", "98765432"] {
            #expect(SetupCode.isTrivial(trivial), "\(trivial)")
        }
        for fine in ["40172953", "12345679", "11111112", "13579246"] { #expect(!SetupCode.isTrivial(fine), "\(fine)") }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let code = SetupCode.random(using: &generator)
            #expect(code.digits.count == 8 && code.digits.allSatisfy(\.isNumber) && !SetupCode.isTrivial(code.digits))
        }
    }

    @Test func whatAPersonTypesIsReadWithItsSpacesAndDashes() {
        #expect(SetupCode(typed: "4017 2953")?.digits == "40172953")
        #expect(SetupCode(typed: "4017-2953")?.digits == "40172953")
        #expect(SetupCode(typed: "4017295") == nil)
        #expect(SetupCode(typed: "401729531") == nil)
        #expect(SetupCode(typed: "4017 295a") == nil)
        #expect(SetupCode(typed: "４０１７２９５３") == nil, "full-width digits are not the board's")
        #expect(SetupCode(typed: "40172953")?.description == "4017 2953")
    }
}
