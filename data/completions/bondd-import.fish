# SPDX-License-Identifier: MIT
# fish completion for bondd-import: the format first, then files.
set -l __bondd_formats ifcfg networkd nm teamd netplan ifupdown
complete -c bondd-import -n "not __fish_seen_subcommand_from $__bondd_formats" -f -a "$__bondd_formats" -d format
complete -c bondd-import -n "__fish_seen_subcommand_from $__bondd_formats" -F
complete -c bondd-import -s c -l companion -d 'print only the companion files for the uppers'
complete -c bondd-import -s h -l help -d 'print help'
complete -c bondd-import -s V -l version -d 'print the version'
