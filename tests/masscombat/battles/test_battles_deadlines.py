"""Round deadlines: the clock the GM sets, pauses and extends, and the job that resolves at the deadline.

The clock is moved rather than waited for: a deadline is put in the past on
the battle row, then the job (or the SQLite server's clock) runs.
"""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from masscombat.battles import deadline_clock, deadlines, services, tasks
from masscombat.battles.models import Battle, BattleEvent, Round

pytestmark = pytest.mark.django_db


def passed(battle: Battle) -> Battle:
    """The battle with its current deadline one second ago (the clock moved on)."""
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    battle.refresh_from_db()
    return battle


def fire(battle: Battle) -> bool:
    return tasks.resolve_at_deadline(battle_id=battle.pk, round=battle.current_round, version=battle.deadline_version)


def test_a_rule_starts_the_round_clock_and_tells_every_screen(battle, gm):
    before = timezone.now()
    deadlines.set_rule(gm, battle.pk, 90)
    battle.refresh_from_db()
    assert battle.deadline_minutes == 90 and battle.deadline_left is None
    assert before + timedelta(minutes=90) <= battle.deadline_at <= timezone.now() + timedelta(minutes=90)
    event = BattleEvent.objects.filter(battle=battle).latest("seq")
    assert event.kind == "deadline" and event.audience == "all"
    assert event.payload == {"round": 1, "version": battle.deadline_version, "at": battle.deadline_at.isoformat(),
                             "left": None}
    deadlines.set_rule(gm, battle.pk, None)
    battle.refresh_from_db()
    assert battle.deadline_at is None and battle.deadline_left is None and deadlines.seconds_left(battle) is None


@pytest.mark.parametrize("minutes", [0, -5, deadlines.MAX_MINUTES + 1])
def test_a_rule_outside_one_minute_to_four_weeks_is_refused(battle, gm, minutes):
    with pytest.raises(ValidationError) as refused:
        deadlines.set_rule(gm, battle.pk, minutes)
    assert "amount" in refused.value.message_dict
    assert Battle.objects.get(pk=battle.pk).deadline_version == 0


def test_only_the_gm_sets_the_clock(battle, player):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        deadlines.set_rule(player, battle.pk, 10)


def test_pause_keeps_the_time_left_and_resume_starts_from_it(battle, gm):
    deadlines.set_rule(gm, battle.pk, 60)
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() + timedelta(minutes=25))
    deadlines.pause_clock(gm, battle.pk)
    battle.refresh_from_db()
    assert battle.deadline_at is None and 24 * 60 < battle.deadline_left <= 25 * 60
    kept = battle.deadline_left
    assert deadlines.seconds_left(battle, timezone.now() + timedelta(hours=3)) == kept  # a paused clock stands still
    with pytest.raises(ValidationError):
        deadlines.pause_clock(gm, battle.pk)
    deadlines.resume_clock(gm, battle.pk)
    battle.refresh_from_db()
    assert battle.deadline_left is None and kept - 2 <= deadlines.seconds_left(battle) <= kept
    assert list(BattleEvent.objects.filter(battle=battle).values_list("kind", flat=True)).count("deadline") == 3


def test_extend_adds_time_running_or_paused(battle, gm):
    deadlines.set_rule(gm, battle.pk, 10)
    battle.refresh_from_db()
    at = battle.deadline_at
    deadlines.extend(gm, battle.pk, 60 * 24)
    battle.refresh_from_db()
    assert timedelta(days=1) - timedelta(seconds=2) <= battle.deadline_at - at <= timedelta(days=1)
    deadlines.pause_clock(gm, battle.pk)
    battle.refresh_from_db()
    left = battle.deadline_left
    deadlines.extend(gm, battle.pk, 5)
    battle.refresh_from_db()
    assert battle.deadline_left == left + 300 and battle.deadline_at is None


def test_extending_a_round_without_deadline_is_refused(battle, gm):
    with pytest.raises(ValidationError):
        deadlines.extend(gm, battle.pk, 5)


def test_pausing_the_battle_stops_its_clock_and_resuming_goes_on(battle, gm):
    deadlines.set_rule(gm, battle.pk, 30)
    services.set_paused(gm, battle.pk, True)
    battle.refresh_from_db()
    assert battle.deadline_at is None and 29 * 60 <= battle.deadline_left <= 30 * 60
    with pytest.raises(ValidationError):  # the clock of a paused battle does not restart alone
        deadlines.resume_clock(gm, battle.pk)
    services.set_paused(gm, battle.pk, False)
    battle.refresh_from_db()
    assert battle.deadline_left is None and 29 * 60 <= deadlines.seconds_left(battle) <= 30 * 60


def test_a_passed_deadline_resolves_once_with_defaults_for_the_missing(battle, gm, player, client):
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    deadlines.set_rule(gm, battle.pk, 5)
    battle = passed(Battle.objects.get(pk=battle.pk))
    assert fire(battle) is True
    assert fire(battle) is False  # a second worker's copy, or the same job again
    resolved = Round.objects.get(battle=battle)
    assert resolved.number == 1 and resolved.resolved_by == gm
    assert resolved.output["defaults_applied"] == ["hero:lucie", "side:b"]
    assert BattleEvent.objects.filter(battle=battle, kind="round_resolved").count() == 1
    battle.refresh_from_db()  # round 2 opens with a clock of its own
    assert battle.current_round == 2 and 4 * 60 <= deadlines.seconds_left(battle) <= 5 * 60
    client.force_login(gm)
    report = client.get(f"/battles/{battle.pk}/part/reports/").content.decode().lower()
    assert report.count("default orders") == 2  # one step for each participant who was missing


def test_a_job_of_an_older_deadline_or_round_does_nothing(battle, gm):
    deadlines.set_rule(gm, battle.pk, 5)
    battle.refresh_from_db()
    old = battle.deadline_version
    deadlines.extend(gm, battle.pk, 5)
    battle = passed(battle)
    assert tasks.resolve_at_deadline(battle_id=battle.pk, round=1, version=old) is False
    assert tasks.resolve_at_deadline(battle_id=battle.pk, round=2, version=battle.deadline_version) is False
    assert tasks.resolve_at_deadline(battle_id=battle.pk + 1000, round=1, version=1) is False
    assert not Round.objects.filter(battle=battle).exists()


def test_a_job_before_its_deadline_waits(battle, gm):
    deadlines.set_rule(gm, battle.pk, 5)
    battle.refresh_from_db()
    assert fire(battle) is False and not Round.objects.filter(battle=battle).exists()


def test_a_paused_clock_never_fires(battle, gm):
    deadlines.set_rule(gm, battle.pk, 5)
    battle.refresh_from_db()
    version = battle.deadline_version
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    deadlines.pause_clock(gm, battle.pk)
    assert tasks.resolve_at_deadline(battle_id=battle.pk, round=1, version=version) is False
    battle.refresh_from_db()
    assert fire(battle) is False and not Round.objects.filter(battle=battle).exists()


def test_all_declarations_in_resolve_early_when_the_gm_chose_so(battle, gm, player, other_player):
    from tests.masscombat.battles.test_battles_services import declare_all

    deadlines.set_rule(gm, battle.pk, 60 * 24, auto_resolve=True)
    declare_all(battle, gm, player, other_player)
    battle.refresh_from_db()
    assert battle.round == 1 and Round.objects.get(battle=battle).output["defaults_applied"] == []
    assert battle.deadline_at > timezone.now() + timedelta(hours=23)  # round 2's own day


def test_the_gm_resolving_early_starts_the_next_rounds_clock_and_undo_restarts_it(battle, gm):
    deadlines.set_rule(gm, battle.pk, 10)
    battle.refresh_from_db()
    first = battle.deadline_version
    services.resolve_round(gm, battle.pk, expected_round=1)
    battle.refresh_from_db()
    assert battle.deadline_version > first and battle.current_round == 2
    assert tasks.resolve_at_deadline(battle_id=battle.pk, round=1, version=first) is False
    services.undo_round(gm, battle.pk, expected_round=1)
    battle.refresh_from_db()
    assert battle.current_round == 1 and 9 * 60 <= deadlines.seconds_left(battle) <= 10 * 60


def test_the_embedded_clock_resolves_a_due_deadline_in_process(battle, gm, settings,
                                                               django_capture_on_commit_callbacks):
    """On SQLite the job goes to the server's clock once the deadline's transaction commits; after a restart
    the clock feeds itself from the database."""
    settings.PROCRASTINATE_ON_PG = False
    with django_capture_on_commit_callbacks(execute=True):
        deadlines.set_rule(gm, battle.pk, 1)
    battle.refresh_from_db()
    jobs = [job for job in deadline_clock.pending_jobs() if job[2]["battle_id"] == battle.pk]
    assert jobs == [(battle.deadline_at, deadlines.TASK_NAME,
                     {"battle_id": battle.pk, "round": 1, "version": battle.deadline_version})]
    assert deadline_clock.run_due(timezone.now()) == 0  # not due yet
    passed(battle)
    deadlines.pending()  # what a restarted server does first
    assert deadline_clock.run_due() == 1  # the copy from the database, due now
    assert Round.objects.filter(battle=battle).count() == 1
    assert deadline_clock.run_due(timezone.now() + timedelta(minutes=2)) == 1  # the first job, when it comes
    assert Round.objects.filter(battle=battle).count() == 1  # finds the round resolved: nothing more
