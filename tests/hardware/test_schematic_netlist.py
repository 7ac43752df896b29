"""The generated netlists wire what the board files say: each chip-select to its own reader, the
shared SPI lines to every reader, the rings in chain order behind the level shifter, the buttons,
and the power tree sized by the budget."""
import pytest

from shengji_table.board import CENTRE, load_board
from shengji_table.hardware.check import led_chain_of_netlist, reach
from shengji_table.hardware.parts import PN532, pico_pin_of_gpio
from shengji_table.hardware.schematic import SchematicError, build_schematic, seat_label

NAMES = ["table-4", "table-6"]


def _pico(netlist):
    (pico,) = netlist.by_part("RaspberryPi_Pico")
    return pico.ref


def _pin_num(name):
    return next(str(p.num) for p in PN532.pins if p.name == name)


def _reader_of(netlist, seat):
    (reader,) = [c for c in netlist.by_part("PN532_Module") if c.fields["Seat"] == seat_label(seat)]
    return reader.ref


def _series_of(netlist, net):
    (r,) = [ref for ref, _ in netlist.nets[net] if netlist.components[ref].fields.get("Role", "").startswith("series")]
    return netlist.components[r]


@pytest.mark.parametrize("name", NAMES)
def test_schematic_each_cs_goes_to_its_own_reader(generated, name):
    board, _, netlist = generated[name]
    pico = _pico(netlist)
    for reader in board.readers:
        net = netlist.net_of(pico, pico_pin_of_gpio(reader.cs))
        assert net is not None, f"GP{reader.cs} is open"
        nss = [ref for ref, pin in reach(netlist, net)
               if netlist.components[ref].part == "PN532_Module" and pin == _pin_num("NSS")]
        assert nss == [_reader_of(netlist, reader.seat)], (reader, netlist.nets[net])
        # through 33 R at the Pico, and with a pull-up on the Pico's own 3.3 V (never the readers' rail:
        # the Pico on USB alone must not feed an unpowered reader)
        assert _series_of(netlist, net).value == "33"
        pulls = [ref for ref, _ in netlist.nets[net] if netlist.components[ref].fields.get("Role") ==
                 "chip-select pull-up"]
        assert len(pulls) == 1
        other = "2" if netlist.net_of(pulls[0], 1) == net else "1"
        assert netlist.net_of(pulls[0], other) == "+3V3"
    assert netlist.net_of(pico, 36) == "+3V3"           # 3V3_OUT feeds them


@pytest.mark.parametrize("name", NAMES)
def test_schematic_every_seat_cable_carries_its_readers_lines(generated, name):
    """Both ends of a reader's cable are on the reader's nets, pin for pin, grounds between the SPI lines."""
    from shengji_table.hardware.parts import SEAT_CABLE_PINS
    board, _, netlist = generated[name]
    for reader in board.readers:
        label = seat_label(reader.seat)
        ends = [c for c in netlist.by_part("Conn_02x06_Seat") if c.fields["Seat"] == label]
        assert sorted(c.fields["Role"] for c in ends) == ["seat cable, Pico end", "seat cable, seat end"]
        u = _reader_of(netlist, reader.seat)
        for c in ends:
            for num, signal in SEAT_CABLE_PINS.items():
                net = netlist.net_of(c.ref, num)
                if signal in ("SCK", "MOSI", "MISO", "NSS"):
                    assert net == netlist.net_of(u, _pin_num(signal))
                elif signal == "GND":
                    assert net == "GND"
                elif signal == "BUTTON":
                    assert (net is None) == (reader.seat == CENTRE)


@pytest.mark.parametrize("name", NAMES)
def test_schematic_spi_lines_reach_every_reader(generated, name):
    board, _, netlist = generated[name]
    pico = _pico(netlist)
    readers = {c.ref for c in netlist.by_part("PN532_Module")}
    assert len(readers) == board.seats + 1
    for signal, gpio in (("SCK", board.spi.sck), ("MOSI", board.spi.mosi), ("MISO", board.spi.miso)):
        net = netlist.net_of(pico, pico_pin_of_gpio(gpio))
        on_net = {ref for ref, pin in reach(netlist, net) if ref in readers and pin == _pin_num(signal)}
        assert on_net == readers, (signal, net)
        if signal != "MISO":                   # the chips drive MISO; the Pico drives the others through 33 R
            assert _series_of(netlist, net).value == "33"


@pytest.mark.parametrize("name", NAMES)
def test_schematic_resets_wired_per_board_file(generated, name):
    board, _, netlist = generated[name]
    pico = _pico(netlist)
    for reader in board.readers:
        ref = _reader_of(netlist, reader.seat)
        rst_net = netlist.net_of(ref, _pin_num("RSTPDN"))
        if reader.rst is None:
            assert rst_net == "+3V3_RDR"
        else:
            assert rst_net == netlist.net_of(pico, pico_pin_of_gpio(reader.rst))
        irq_net = netlist.net_of(ref, _pin_num("IRQ"))
        assert (irq_net is None) == (reader.irq is None)


def test_schematic_unwired_reset_is_held_high_and_irq_is_wired_when_asked(board_copy):
    def edit(data):
        data["readers"][0]["rst"] = None
        data["readers"][1]["irq"] = 21
    board = load_board(board_copy("table-4", edit))
    sch = build_schematic(board)
    pn = [p for p in sch.parts_in("readers") if p.name == "PN532_Module"]
    seat0 = next(p for p in pn if p.fields["Seat"] == "seat0")
    seat1 = next(p for p in pn if p.fields["Seat"] == "seat1")
    assert seat0["RSTPDN"].net.name == "+3V3_RDR"
    assert seat1["IRQ"].net.name == "IRQ_SEAT1"
    on_irq = {p.part.ref for p in seat1["IRQ"].net.pins if p.part.name != "Conn_02x06_Seat"}
    assert on_irq == {seat1.ref, sch.part("U1").ref}
    # the cable carries it (pin 11 at both ends), and carries no reset for seat 0
    cables = [p for p in sch.parts_in("readers") if p.name == "Conn_02x06_Seat"]
    assert {c[11].net.name for c in cables if c.fields["Seat"] == "seat1"} == {"IRQ_SEAT1"}
    assert {c[10].net.name for c in cables if c.fields["Seat"] == "seat0"} == {"__NOCONNECT"}


@pytest.mark.parametrize("name", NAMES)
def test_schematic_led_chain_follows_first_pixel_behind_the_level_shifter(generated, name):
    board, _, netlist = generated[name]
    assert led_chain_of_netlist(netlist) == [f"{seat_label(r.seat)} x{r.count}" for r in board.leds.rings]
    pico = _pico(netlist)
    data = netlist.net_of(pico, pico_pin_of_gpio(board.leds.pin))
    (shifter,) = netlist.by_part("74AHCT125")
    assert (shifter.ref, "2") in netlist.nets[data]        # 1A, the 3.3 V side
    assert netlist.net_of(shifter.ref, 14) == "+5V"        # VCC at 5 V: outputs at 5 V levels
    assert netlist.net_of(shifter.ref, 1) == "GND"         # 1OE enabled


@pytest.mark.parametrize("name", NAMES)
def test_schematic_buttons_between_their_gpio_and_ground(generated, name):
    board, _, netlist = generated[name]
    pico = _pico(netlist)
    switches = {c.fields["Seat"]: c.ref for c in netlist.by_part("SW_Push")}
    assert len(switches) == board.seats
    for b in board.buttons:
        ref = switches[seat_label(b.seat)]
        gpio_net = netlist.net_of(pico, pico_pin_of_gpio(b.pin))
        assert (ref, "1") in reach(netlist, gpio_net)
        assert _series_of(netlist, gpio_net).value == "1k"
        assert netlist.net_of(ref, 2) == ("GND" if b.active == "low" else "+3V3")
        # at the line players touch: a TVS clamp and 100 n to ground
        line = netlist.net_of(ref, 1)
        kinds = sorted(netlist.components[r].part for r, _ in netlist.nets[line])
        assert "D_TVS" in kinds and "C" in kinds


def test_schematic_button_without_internal_pull_gets_an_external_one(board_copy):
    def edit(data):
        data["buttons"][2]["pull"] = "none"
    sch = build_schematic(load_board(board_copy("table-4", edit)))
    pulls = [p for p in sch.parts_in("buttons") if p.name == "R"]
    pulls = [p for p in pulls if p.fields["Role"].startswith("button pull")]
    assert [p.fields["Seat"] for p in pulls] == ["seat2"]
    assert {pin.net.name for pin in pulls[0].pins} == {"BTN_SEAT2_MCU", "+3V3"}
    assert sch.part("U1")["3V3_OUT"].net.name == "+3V3"   # the Pico's 3.3 V now feeds the pull-up


def test_schematic_power_tree_is_sized_by_the_budget(generated):
    for name, regulator in (("table-4", "AMS1117-3.3"), ("table-6", "LM1085IT-3.3")):
        board, outputs, netlist = generated[name]
        regs = [c for c in netlist.components.values() if c.fields.get("Role") == "3.3 V regulator for the readers"]
        assert [c.value for c in regs] == [regulator]
        assert netlist.net_of(regs[0].ref, 3) == "+5V" and netlist.net_of(regs[0].ref, 2) == "+3V3_RDR"
        # every reader is on the regulator's rail, not the Pico's 3.3 V
        for c in netlist.by_part("PN532_Module"):
            assert netlist.net_of(c.ref, 1) == "+3V3_RDR"
        # the Pico is fed through the Schottky diode; its VBUS stays off the 5 V rail
        pico = _pico(netlist)
        assert netlist.net_of(pico, 39) == "VSYS" and netlist.net_of(pico, 40) is None
        bulk = [c for c in netlist.components.values() if c.fields.get("Role") == "bulk capacitor at the 5 V input"]
        assert [c.value for c in bulk] == ["1000u"] and netlist.net_of(bulk[0].ref, 1) == "+5V"


def test_schematic_refuses_a_gap_in_the_led_chain(board_copy):
    def edit(data):
        data["leds"]["rings"][4]["first"] = 50   # the centre ring; pixels 48-49 belong to no ring
    with pytest.raises(SchematicError, match="centre starts at pixel 50.*next ring starts at pixel 48"):
        build_schematic(load_board(board_copy("table-4", edit)))


def test_schematic_refuses_a_button_that_reads_pressed_at_rest(board_copy):
    def edit(data):
        data["buttons"][0]["active"] = "high"    # pulled up, and "pressed" means high
    with pytest.raises(SchematicError, match="seat 0, GP2"):
        build_schematic(load_board(board_copy("table-4", edit)))


def test_schematic_centre_without_ring_has_no_centre_ring(board_copy):
    def edit(data):
        data["leds"]["rings"] = [r for r in data["leds"]["rings"] if r["seat"] != CENTRE]
    sch = build_schematic(load_board(board_copy("table-4", edit)))
    rings = [p for p in sch.parts_in("leds") if p.name == "WS2812B_Ring"]
    assert [p.fields["Seat"] for p in rings] == ["seat0", "seat1", "seat2", "seat3"]
