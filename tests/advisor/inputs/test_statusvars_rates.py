"""Status snapshots: rates between two samples, since-startup averages, restarts, mysqladmin -r."""

from __future__ import annotations

import pytest

from advisor.errors import InputError
from advisor.inputs.status_relative import to_int
from advisor.inputs.statusvars import StatusSample, build_status_view, parse_status
from tests.corpus import corpus_file

SYSBENCH = "mariadb-10.11-sysbench/"
SUMMARY = "percona-toolkit/t/pt-mysql-summary/samples/"
MEXT = "percona-toolkit/t/pt-mext/samples/"


def status_of(relative: str) -> tuple[StatusSample, ...]:
    return parse_status(corpus_file(relative).read_text(encoding="utf-8"), relative)


def test_rates_between_two_sysbench_snapshots() -> None:
    """Two snapshots 20 s apart give per-second rates over the Uptime difference."""
    earlier = status_of(SYSBENCH + "s02_load_rw_default.global_status.t20s.tsv")
    later = status_of(SYSBENCH + "s02_load_rw_default.global_status.tsv")
    view = build_status_view(earlier + later)
    # From the files: Uptime 94 -> 114 (20 s); Com_commit 8923 -> 20960, (20960 - 8923) / 20 = 601.85;
    # Innodb_os_log_written 515756046 -> 582739266, (582739266 - 515756046) / 20 = 3349161.0.
    assert view.window_seconds == 20
    assert not view.since_startup and not view.restarted
    assert view.delta("Com_commit") == 12037
    assert view.rate("Com_commit") == pytest.approx(601.85)
    assert view.rate("innodb_os_log_written") == pytest.approx(3349161.0)
    assert view.describe_window() == "rate over 20 s between two snapshots"
    assert view.warnings == ()


def test_gauges_are_read_from_the_latest_sample() -> None:
    """value() reads gauges such as Threads_running from the latest snapshot as they are."""
    earlier = status_of(SYSBENCH + "s02_load_rw_default.global_status.t20s.tsv")
    later = status_of(SYSBENCH + "s02_load_rw_default.global_status.tsv")
    view = build_status_view(earlier + later)
    assert view.value("Threads_running") == later[0].number("Threads_running")
    assert view.value("Innodb_buffer_pool_pages_free") == later[0].number("innodb_buffer_pool_pages_free")
    assert view.value("Innodb_buffer_pool_load_status") is None
    assert view.text("Innodb_buffer_pool_load_status") == later[0].get("Innodb_buffer_pool_load_status")


def test_one_snapshot_gives_since_startup_averages() -> None:
    """A single snapshot: rates are averages over Uptime, and the evidence says so."""
    (sample,) = status_of(SUMMARY + "temp_enc009/mysql-status")
    view = build_status_view([sample])
    assert view.since_startup and view.earlier is None
    assert view.window_seconds == 174515
    assert view.delta("Bytes_received") == sample.number("Bytes_received")
    assert view.rate("Uptime") == pytest.approx(1.0)
    assert view.describe_window() == "average since startup (uptime 2.0 d)"


def test_uptime_going_down_is_a_restart() -> None:
    """Uptime 114 s then 65 s: a restart, a warning, and since-startup averages of the latest."""
    first = status_of(SYSBENCH + "s02_load_rw_default.global_status.tsv")
    last = status_of(SYSBENCH + "s01_idle_default.global_status.tsv")
    view = build_status_view(first + last)
    assert view.restarted and view.since_startup
    assert view.window_seconds == 65
    # The latest file: Bytes_received 311141039 after 65 s of uptime.
    assert view.delta("Bytes_received") == 311141039
    assert view.rate("Bytes_received") == pytest.approx(311141039 / 65)
    assert any("restarted" in warning.message for warning in view.warnings)
    assert "restarted" in view.describe_window()


def test_snapshots_given_newest_first_are_named_as_a_possible_cause() -> None:
    """The sysbench snapshots newest first (Uptime 114 s, then 94 s) read as a restart with no word of the
    likelier mistake; counters fall alike either way, so the warning names both."""
    earlier = status_of(SYSBENCH + "s02_load_rw_default.global_status.t20s.tsv")
    later = status_of(SYSBENCH + "s02_load_rw_default.global_status.tsv")
    swapped = build_status_view(later + earlier)
    assert swapped.restarted
    assert any("given newest first (give the older snapshot first)" in w.message for w in swapped.warnings)


def test_pt_mysql_summary_defer_file_holds_two_samples_side_by_side() -> None:
    """mysql-status-defer: `name before after`, multi-word values split evenly between samples."""
    before, after = status_of(SUMMARY + "temp_enc008/mysql-status-defer")
    assert (before.uptime, after.uptime) == (108232, 108242)
    assert before.get("Innodb_buffer_pool_load_status") == "Buffer pool(s) load completed at 230712 17:25:59"
    assert after.get("Max_used_connections_time") == "2023-07-12 17:26:20"
    assert before.get("Ssl_cipher") == after.get("Ssl_cipher") == ""
    assert (after.get("Rsa_public_key") or "").endswith("-----END PUBLIC KEY-----\\n")  # -B escapes kept
    view = build_status_view((before, after))
    # Bytes_received 5253784 -> 5260446 over 10 s: 666.2 per second.
    assert view.rate("Bytes_received") == pytest.approx(666.2)


def test_mysqladmin_absolute_samples() -> None:
    """`mysqladmin ext -i3 -c4`: four boxed tables, each an absolute sample."""
    samples = status_of(MEXT + "mext-002.txt")
    assert [sample.uptime for sample in samples] == [5800, 5803, 5806, 5809]
    assert [sample.index for sample in samples] == [0, 1, 2, 3]
    assert samples[0].warnings == ()
    view = build_status_view(samples)
    # Bytes_received 6473998 -> 6474103 over 9 s.
    assert view.rate("Bytes_received") == pytest.approx(105 / 9)


def test_mysqladmin_relative_samples_are_added_up() -> None:
    """`mysqladmin ext -r -i`: later tables are differences; the samples come back absolute."""
    samples = status_of(MEXT + "mext-001.txt")
    # The file: Uptime 5550 then +3, +4, +3; Bytes_received 6473787 then +35 three times;
    # Innodb_page_size 16384 then 0 (a constant differs by nothing), Threads_connected 2 then 0.
    assert [sample.uptime for sample in samples] == [5550, 5553, 5557, 5560]
    assert [sample.number("Bytes_received") for sample in samples] == [6473787, 6473822, 6473857, 6473892]
    assert samples[-1].number("Innodb_page_size") == 16384
    assert samples[-1].number("Threads_connected") == 2
    assert any("differences" in warning.message for warning in samples[0].warnings)
    view = build_status_view(samples)
    assert view.window_seconds == 10
    assert view.rate("Bytes_received") == pytest.approx(10.5)


def test_many_absolute_samples_are_not_mistaken_for_differences() -> None:
    """pt-130-in: thirty absolute tables one second apart stay as printed."""
    samples = status_of(MEXT + "pt-130-in.txt")
    assert len(samples) == 30
    assert [sample.uptime for sample in samples[:3]] == [546, 547, 548]
    assert samples[0].warnings == ()
    assert build_status_view(samples).window_seconds == 29


def test_side_by_side_uptime_drop_stays_absolute() -> None:
    """Two absolute samples whose Uptime goes down are a restart, not mysqladmin -r differences."""
    newer = status_of(SYSBENCH + "s02_load_rw_default.global_status.tsv")[0].values
    older = status_of(SYSBENCH + "s01_idle_default.global_status.tsv")[0].values
    names = [
        name for name in newer if newer[name] and older.get(name) and " " not in newer[name] + older[name]
    ]
    samples = parse_status("\n".join(f"{name} {newer[name]} {older[name]}" for name in names), "side.txt")
    assert samples[1].uptime == 65
    assert samples[1].number("Com_commit") == to_int(older["com_commit"])
    assert samples[0].warnings == ()
    assert build_status_view(samples).restarted


def test_status_without_uptime_has_no_rates() -> None:
    """Without Uptime there is no window: values yes, rates no, and a warning says why."""
    view = build_status_view(parse_status("Com_commit\t10\nThreads_running\t3\n", "partial"))
    assert view.value("Threads_running") == 3
    assert view.rate("Com_commit") is None
    assert view.describe_window() == "average since startup (uptime unknown)"
    assert view.warnings


def test_flush_status_between_snapshots() -> None:
    """Uptime_since_flush_status going down while Uptime rises: counters that fell have no rate."""
    view = build_status_view(
        parse_status("Uptime\t100\nUptime_since_flush_status\t100\nCom_commit\t500\nBytes_sent\t9\n", "a")
        + parse_status("Uptime\t110\nUptime_since_flush_status\t5\nCom_commit\t20\nBytes_sent\t19\n", "b")
    )
    assert view.status_flushed and not view.since_startup
    assert view.rate("Com_commit") is None
    assert view.rate("Bytes_sent") == pytest.approx(1.0)
    assert any("FLUSH STATUS" in warning.message for warning in view.warnings)


def test_help_output_is_not_status() -> None:
    """mysqld --help lists variables; handing it in as status is refused."""
    with pytest.raises(InputError, match="not status"):
        status_of("realworld/variables/ltangvald_mysql__mysqld--help-notwin-5.7.result")


def test_no_samples_is_an_input_error() -> None:
    """build_status_view of nothing is refused with InputError."""
    with pytest.raises(InputError):
        build_status_view([])
