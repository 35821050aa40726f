# SPDX-License-Identifier: MIT
# fish completion for bondd (bondd-status.fish and bondd-import.fish beside it).
complete -c bondd -s c -l config -r -F -d 'configuration file'
complete -c bondd -s s -l socket -r -F -d 'status socket'
complete -c bondd -s n -l check -d 'check the configuration and exit'
complete -c bondd -s p -l plan -d 'with --check: print what a start would do'
complete -c bondd -s d -l debug -d 'log debug messages'
complete -c bondd -s V -l version -d 'print the version'
complete -c bondd -s h -l help -d 'print help'
