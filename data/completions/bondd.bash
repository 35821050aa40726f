# SPDX-License-Identifier: MIT
# bash completion for bondd, bondd-status and bondd-import (installed by
# meson under bash-completion/completions, one name per command).

# The bonds of bondd's configuration: the [NAME] sections of
# /etc/bondd/bondd.conf and its drop-ins that this user may read.
_bondd_bonds()
{
	local conf=/etc/bondd/bondd.conf f
	for f in "$conf" "$conf".d/*.conf; do
		[[ -r $f ]] && sed -n 's/^[[:space:]]*\[\([^]]*\)\][[:space:]]*$/\1/p' "$f"
	done 2>/dev/null
}

_bondd()
{
	local cur prev
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-c|--config) compopt -o filenames; COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-s|--socket) compopt -o filenames; COMPREPLY=($(compgen -f -- "$cur")); return ;;
	esac
	COMPREPLY=($(compgen -W '--config --socket --check --plan --debug --version --help' -- "$cur"))
}

_bondd_status()
{
	local cur prev
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prev in
	-s|--socket) compopt -o filenames; COMPREPLY=($(compgen -f -- "$cur")); return ;;
	-t|--try) COMPREPLY=($(compgen -W '30 60 120 300' -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '--socket --explain --json --brief --prometheus
			--link-check --neighbours --watch --reload --try --wait --confirm
			--settle --version --help' -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -W "$(_bondd_bonds)" -- "$cur"))
}

_bondd_import()
{
	local cur i format=""
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} != -* ]] && { format=${COMP_WORDS[i]}; break; }
	done
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '--companion --help --version' -- "$cur"))
	elif [[ -z $format ]]; then
		COMPREPLY=($(compgen -W 'ifcfg networkd nm teamd netplan ifupdown' -- "$cur"))
	else
		compopt -o filenames
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

complete -F _bondd bondd
complete -F _bondd_status bondd-status
complete -F _bondd_import bondd-import
