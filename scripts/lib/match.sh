# Shared by scripts/sprt, scripts/strength and scripts/time-to-depth,
# which source it: the parts of playing a match (building the engine from
# a commit, recording the result) that they do the same way. Not a command of its own.

die() {
    echo "${0##*/}: $*" >&2
    exit 2
}

# The comment block at the top of the script that sourced this file
# (without the stage markers of main's copy).
usage() {
    sed -n '2,/^set -euo/p' "$0" | grep -v '^# ANCHOR' | sed '$d; s/^# \{0,1\}//'
}

arena=target/release/arena

# Sets `commit` to the commit the binaries are built from (noted before
# building; `-dirty` when tracked files differ), then builds them. A record
# must name the code that played, so with --record ($1 = true) a dirty tree
# is refused: a record written by an earlier match counts too, since the
# engine embeds the manifests.
build_from_commit() {
    local record=$1
    commit=$(git rev-parse HEAD)
    if [[ -n $(git status --porcelain --untracked-files=no) ]]; then
        commit+=-dirty
        $record && die "uncommitted changes: commit them before a match you --record"
    fi
    cargo build --release -p cb2026 -p arena
}

# Sets `args` to the arena arguments recorded in table $2 of manifest $1,
# to play that match again.
recorded_args() {
    local manifest=$1 table=$2 command
    [[ -x $arena ]] || cargo build --release -p arena
    command=$("$arena" show --manifest "$manifest" --table "$table" --key command) ||
        die "$manifest has no recorded [$table] table to repeat"
    [[ $command == "target/release/arena match "* ]] ||
        die "unexpected command in $manifest: $command"
    args=()
    eval "args=(${command#target/release/arena })"
}

# Plays the match in `args` (unless $2 = true, a dry run), then with
# --record ($1 = true) writes its --json summary into table $4 of manifest
# $3, with the commit noted by build_from_commit.
play_and_record() {
    local record=$1 dry_run=$2 manifest=$3 table=$4 json= i
    for ((i = 0; i < ${#args[@]}; i++)); do
        case ${args[i]} in
            --json) json=${args[i + 1]:-} ;;
            --json=*) json=${args[i]#--json=} ;;
        esac
    done
    if $record && [[ -z $json ]]; then
        die "--record needs the match's --json summary"
    fi
    echo "+ $arena ${args[*]}"
    $dry_run && return 0
    TIMEFORMAT='match took %R s (CPU: %U s user, %S s system, engines included)'
    time "$arena" "${args[@]}"
    if $record; then
        "$arena" record --json "$json" --manifest "$manifest" --table "$table" --commit "$commit"
        echo "now run: scripts/book-data --no-measure   (the book's tables in book/src/generated)"
    fi
}

# stages/NN-slug.toml for stage $1.
manifest_of() {
    [[ $1 =~ ^[0-9]+$ ]] || die "not a stage number: $1"
    local files
    files=(stages/"$(printf '%02d' "$((10#$1))")"-*.toml)
    [[ -f ${files[0]} ]] || die "no manifest for stage $1 in stages/"
    echo "${files[0]}"
}

# Whether the extra arena flags (the array `extra`) give one of the flags
# named, so that a default is added only when they do not.
given() {
    local flag wanted
    for flag in "${extra[@]}"; do
        for wanted in "$@"; do
            [[ $flag == "$wanted" || $flag == "$wanted="* ]] && return 0
        done
    done
    return 1
}
