# SPDX-License-Identifier: MIT
# Automation reads the plan: `bondd --check --plan --json` is one JSON
# document per run (saved for the schema check in CI), and
# --detailed-exitcode says 0 when nothing would change and 2 when
# something would, for the text plan too; errors keep their codes.
# Three kernels: no bond yet (a create), the running configuration
# (nothing), a slave added (one enslave, no disruption), and a mode
# change (a re-build: traffic disrupted, said per action and per bond).
. "$LIB_DIR/lib.sh"
. "$LIB_DIR/bondd-lib.sh"

nics 3
write_conf "$WORK/bondd.conf" <<CONF
[bond0]
miimon = 100
mtu = 9000
slaves = e1 e2
CONF
samples=$BUILD_DIR/status-samples
mkdir -p "$samples"

# plan NAME [ARGS...]: runs the JSON plan into $WORK/NAME.plan.json,
# sets rc; stdout must be the JSON alone.
plan() {
	local name=$1
	shift
	rc=0
	"$BONDD" --check --plan --json --config "$WORK/bondd.conf" "$@" \
		>"$WORK/$name.plan.json" 2>"$WORK/$name.err" || rc=$?
	cat "$WORK/$name.plan.json"
	cp "$WORK/$name.plan.json" "$samples/205-$name.plan.json"
}
# jget NAME EXPR: a Python expression over the document d.
jget() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$WORK/$1.plan.json" "$2"
}

# No bond yet: a create, exit 2 with the option, 0 without.
plan create --detailed-exitcode
assert_eq 2 "$rc" "exit status of a plan that creates a bond"
assert_eq "(True, 'bond0', 'create', 'missing')" \
	"$(jget create 'd["changes"], d["bonds"][0]["name"], d["bonds"][0]["actions"][0]["action"], d["bonds"][0]["actions"][0]["reason"]')" "the create action"
plan create-plain
assert_eq 0 "$rc" "exit status without --detailed-exitcode"

start_bondd "$WORK/bondd.conf"
whole bond0 e1,e2 9000 >/dev/null
stop_bondd

# The running configuration: nothing to do, 0, in JSON and in text.
plan running --detailed-exitcode
assert_eq 0 "$rc" "exit status of the running configuration"
assert_eq "(False, 0, False, [])" \
	"$(jget running 'd["changes"], d["actions"], d["bonds"][0]["changes"], d["bonds"][0]["actions"]')" "the running configuration's plan"
rc=0
"$BONDD" --check --plan --detailed-exitcode --config "$WORK/bondd.conf" >"$WORK/text.out" || rc=$?
assert_eq 0 "$rc" "the text plan's exit status, nothing to do"
file_has "$WORK/text.out" "nothing to do" || fail "the text plan does not say nothing to do"

# A slave added: one enslave, not disrupting; the text plan says 2 too.
sed -i 's/slaves = e1 e2/slaves = e1 e2 e3/' "$WORK/bondd.conf"
plan change --detailed-exitcode
assert_eq 2 "$rc" "exit status of a change"
assert_eq "([('enslave', 'e3', 'missing', False)], 0)" \
	"$(jget change '[(a["action"], a["interface"], a["reason"], a["disrupts_traffic"]) for a in d["bonds"][0]["actions"]], d["disrupting"]')" "the change's plan"
rc=0
"$BONDD" --check --plan --detailed-exitcode --config "$WORK/bondd.conf" >"$WORK/text.out" || rc=$?
assert_eq 2 "$rc" "the text plan's exit status, a change"
file_has "$WORK/text.out" "bond0: enslave e3 to bond0 (missing)" || fail "the text plan lost its line"

# A mode change on a bond with slaves: a re-build, disrupting.
sed -i 's/miimon = 100/mode = active-backup\nmiimon = 100/' "$WORK/bondd.conf"
plan rebuild --detailed-exitcode
assert_eq 2 "$rc" "exit status of a re-build"
assert_eq "(True, True, True, True)" \
	"$(jget rebuild 'd["bonds"][0]["disrupts_traffic"], d["disrupting"] > 0, any(a["reason"] == "rebuild" and a["disrupts_traffic"] for a in d["bonds"][0]["actions"]), d["disrupting"] == sum(a["disrupts_traffic"] for a in d["bonds"][0]["actions"])')" "the re-build's plan"
# Nothing was taken: the kernel is as the start left it.
bond_slaves bond0
assert_eq "e1 e2" "$SLAVES" "slaves after the plans"

# Errors keep their codes: a bad file is 78 with or without the option,
# and --json/--detailed-exitcode need --check --plan (64).
printf '[bond0]\nmode = nonsense\nslaves = e1\n' >"$WORK/bad.conf"
rc=0
"$BONDD" --check --plan --json --detailed-exitcode --config "$WORK/bad.conf" >/dev/null 2>&1 || rc=$?
assert_eq 78 "$rc" "exit status of a bad file"
rc=0
"$BONDD" --check --json --config "$WORK/bondd.conf" >/dev/null 2>&1 || rc=$?
assert_eq 64 "$rc" "--json without --plan"
