# SPDX-License-Identifier: MIT
# fish completion for bondd-status.
function __bondd_bonds
    for f in /etc/bondd/bondd.conf /etc/bondd/bondd.conf.d/*.conf
        test -r $f; and sed -n 's/^[[:space:]]*\[\([^]]*\)\][[:space:]]*$/\1/p' $f
    end 2>/dev/null
end
complete -c bondd-status -f -a '(__bondd_bonds)' -d bond
complete -c bondd-status -s s -l socket -r -F -d 'status socket'
complete -c bondd-status -s e -l explain -d 'each bond on one screen: health, findings, slaves, link check'
complete -c bondd-status -s j -l json -d 'one JSON document'
complete -c bondd-status -s b -l brief -d 'one line per bond'
complete -c bondd-status -s p -l prometheus -d 'Prometheus metrics'
complete -c bondd-status -s l -l link-check -d 'run a link check and print its table'
complete -c bondd-status -s n -l neighbours -d "each slave's LLDP neighbour"
complete -c bondd-status -s w -l watch -d 'print events as they happen'
complete -c bondd-status -s r -l reload -d 'make bondd apply its configuration again'
complete -c bondd-status -s t -l try -x -a '30 60 120 300' -d 'reload on trial: put back unless confirmed within SECONDS'
complete -c bondd-status -l wait -d 'with --try: wait until the trial is confirmed or put back'
complete -c bondd-status -s c -l confirm -d 'keep the configuration on trial'
complete -c bondd-status -l settle -d 'return once bondd has handled every kernel event queued'
complete -c bondd-status -s V -l version -d 'print the version'
complete -c bondd-status -s h -l help -d 'print help'
