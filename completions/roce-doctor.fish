# SPDX-License-Identifier: GPL-2.0-only
# fish completion for roce-doctor. Options are listed per command as each command's --help shows them
# (tests/docs/docs_test.sh holds the two together); check ids come from `roce-doctor check --list` and device
# names from `roce-doctor devices --brief` under the --root/--from on the line, so neither can drift.

# The command word on the line (nothing before one): the first word that is not an option or the value of
# the global --root/--from.
function __roce_doctor_cmd
    set -l toks (commandline -opc)
    set -e toks[1]
    while set -q toks[1]
        switch $toks[1]
            case --root --from
                set -e toks[1]
            case '-*'
            case '*'
                echo $toks[1]
                return 0
        end
        set -e toks[1]
    end
    return 1
end

# True when the line's command is one of the arguments; - stands for no command yet.
function __roce_doctor_using
    set -l cmd (__roce_doctor_cmd); or set cmd -
    contains -- $cmd $argv
end

# The --root DIR / --from FILE already on the line, one word a line, so devices and netdevs come from the
# tree or snapshot the command will read, not from this host.
function __roce_doctor_context
    set -l toks (commandline -opc)
    set -l n (count $toks)
    for i in (seq 2 $n)
        set -l v
        switch $toks[$i]
            case --root --from
                test $i -lt $n; or continue
                set v $toks[$i] $toks[(math $i + 1)]
            case '--root=*' '--from=*'
                set v (string split -m 1 = -- $toks[$i])
            case '*'
                continue
        end
        echo $v[1]
        string replace -r '^~' -- $HOME $v[2]
    end
end

function __roce_doctor_devices
    set -l bin (commandline -opc)[1]
    $bin (__roce_doctor_context) devices --brief 2>/dev/null |
        awk '$2 == "port" { print $1 "\tRDMA device"; print $1 "/" $3 "\tport"; if ($5 != "N/A") print $5 "\tnetdev" }'
end

function __roce_doctor_netdevs
    set -l ctx (__roce_doctor_context)
    set -l root
    set -l i (contains -i -- --root $ctx); and set root $ctx[(math $i + 1)]
    for n in $root/sys/class/net/*
        basename $n
    end
end

# check's ids (and, for --only, their areas) as check --list gives them; a comma list completes its last item
function __roce_doctor_check_ids
    set -l bin (commandline -opc)[1]
    set -l cur (commandline -ct | string replace -r -- '^--[a-z]+=' '')
    set -l head (string match -r -- '^.*,' $cur)
    $bin check --list 2>/dev/null | awk -v h="$head" \
        'NR > 1 { print h $1 "\t" $2; if (!seen[$2]++) print h $2 "\tarea" }'
end

# The users check --user judges: the --root tree's etc/passwd (root alone in a tree without one, as check
# reads it), the one user a --from snapshot recorded (check --from judges no other), this host's otherwise.
function __roce_doctor_users
    set -l ctx (__roce_doctor_context)
    set -l i (contains -i -- --root $ctx)
    if test -n "$i"
        set -l root $ctx[(math $i + 1)]
        if test -e $root/etc/passwd
            awk -F: '!/^#/ && NF > 1 { print $1 }' $root/etc/passwd 2>/dev/null
        else
            echo root
        end
        return
    end
    set i (contains -i -- --from $ctx)
    if test -n "$i"
        set -l file $ctx[(math $i + 1)]
        test "$file" != -; and tr -d ' \t\r\n' < $file 2>/dev/null | grep -o '"user":{"name":"[^"]*"' | head -1 | cut -d'"' -f6
        return
    end
    __fish_complete_users
end

set -l c roce-doctor
complete -c $c -f
# commands
complete -c $c -n '__roce_doctor_using -' -a devices -d 'RDMA device -> port -> netdev map, link state, MTUs'
complete -c $c -n '__roce_doctor_using -' -a gid -d 'GID tables; --suggest: the NCCL_IB_GID_INDEX to use'
complete -c $c -n '__roce_doctor_using -' -a check -d 'Preflight verdict: findings with exact fixes'
complete -c $c -n '__roce_doctor_using -' -a nccl-env -d 'The NCCL environment that matches this host'
complete -c $c -n '__roce_doctor_using -' -a nccl -d 'The NCCL libraries and the GID index each will use'
complete -c $c -n '__roce_doctor_using -' -a topo -d 'GPU x NIC PCIe matrix, rails, ACS and link width'
complete -c $c -n '__roce_doctor_using -' -a snapshot -d 'One JSON document of the host and its identity'
complete -c $c -n '__roce_doctor_using -' -a compare -d "The nodes' snapshots side by side"
complete -c $c -n '__roce_doctor_using -' -a explain -d "A failing job's log read back as causes and fixes"
complete -c $c -n '__roce_doctor_using -' -a counters -d 'NIC counters that moved, by meaning'
complete -c $c -n '__roce_doctor_using -' -a serve -d 'The other end of bw and lat'
complete -c $c -n '__roce_doctor_using -' -a bw -d 'RDMA bandwidth to a serve'
complete -c $c -n '__roce_doctor_using -' -a lat -d 'RDMA-write ping-pong latency to a serve'
complete -c $c -n '__roce_doctor_using -' -a mesh -d "Every pair's bandwidth across a job's nodes: the plan"
complete -c $c -n '__roce_doctor_using -' -a help -d 'Describe a command'
complete -c $c -n '__roce_doctor_using help' -a 'devices gid check nccl-env nccl topo snapshot compare explain counters serve bw lat mesh'
complete -c $c -n '__roce_doctor_using -' -s V -l version -d 'Print program version'

# options every command has
complete -c $c -s j -l json -d 'Print one JSON document on stdout'
# nccl, topo, snapshot, explain, counters and mesh refuse -v: they print all they have to say without it
complete -c $c -n 'not __roce_doctor_using nccl topo snapshot explain counters mesh' -s v -l verbose -d "Say more (what: see the command's --help)"
complete -c $c -s h -l help -d 'Give this help list'
# every command that prints a document (serve writes an event log)
complete -c $c -n 'not __roce_doctor_using serve' -l output -r -F -d 'Write the document to FILE, whole or not at all'
complete -c $c -n 'not __roce_doctor_using serve' -l pretty -d 'Indent the JSON document'
complete -c $c -n 'not __roce_doctor_using serve' -l compact -d 'Print the JSON document on one line'
set -l tree '- devices gid check nccl-env nccl topo snapshot explain counters mesh'
set -l model '- devices gid check nccl-env nccl explain topo mesh'
complete -c $c -n "__roce_doctor_using $tree" -l root -x -a '(__fish_complete_directories)' -d 'Read /sys, /proc and /etc under DIR'
complete -c $c -n "__roce_doctor_using $model" -l from -r -F -d 'Answer from a snapshot (- reads stdin)'
complete -c $c -n '__roce_doctor_using gid check nccl-env compare explain' -l family -x -a 'ipv4 ipv6' -d 'Address family of the RoCE v2 GID'

# devices, gid
complete -c $c -n '__roce_doctor_using devices gid' -a '(__roce_doctor_devices)'
complete -c $c -n '__roce_doctor_using devices' -s b -l brief -d "Print exactly ibdev2netdev's lines"
complete -c $c -n '__roce_doctor_using gid' -s s -l suggest -d 'Print the NCCL_IB_GID_INDEX to use'
complete -c $c -n '__roce_doctor_using gid' -l netdev -x -a '(__roce_doctor_netdevs)' -d 'Take the GID on this netdev'
complete -c $c -n '__roce_doctor_using gid' -l peer -x -a '(__fish_print_hostnames)' -d 'Prefer the GID whose subnet reaches ADDR'

# check, nccl-env
complete -c $c -n '__roce_doctor_using check' -l only -x -a '(__roce_doctor_check_ids)' -d 'Run only checks with this id prefix'
complete -c $c -n '__roce_doctor_using check' -l skip -x -a '(__roce_doctor_check_ids)' -d 'Leave out checks with this id prefix'
complete -c $c -n '__roce_doctor_using check' -l list -d 'List every check id and run nothing'
complete -c $c -n '__roce_doctor_using check' -l user -x -a '(__roce_doctor_users)' -d 'Judge pam limits and ~/.nccl.conf for NAME'
complete -c $c -n '__roce_doctor_using check' -l color -x -a 'auto always never' -d 'Colour the text'
complete -c $c -n '__roce_doctor_using check' -l no-bw -d 'With --peer: skip the short bw run per rail'
complete -c $c -n '__roce_doctor_using check nccl-env' -l peer -x -a '(__fish_print_hostnames)' -d 'The peer running roce-doctor serve'
complete -c $c -n '__roce_doctor_using check nccl-env' -l master-port -x -d "torchrun's MASTER_PORT"
complete -c $c -n '__roce_doctor_using check nccl-env' -l peer-fixture -x -a '(__fish_complete_directories)' -d 'For tests: the peer from DIR'
complete -c $c -n '__roce_doctor_using nccl-env' -l format -x -a 'sh env json docker k8s' -d 'Output format'
complete -c $c -n '__roce_doctor_using nccl-env' -l socket-if -x -a '(__roce_doctor_netdevs)' -d "Interface for NCCL's bootstrap socket"
complete -c $c -n '__roce_doctor_using check nccl-env bw lat mesh' -l timeout -x -d 'Give up after S seconds without an answer'
complete -c $c -n '__roce_doctor_using check bw lat' -l format -x -a 'text json junit prometheus' -d 'Output format'
complete -c $c -n '__roce_doctor_using check nccl-env serve bw lat mesh' -l secret-file -r -F -d 'A secret shared with the serve (mode 600)'

# nccl, snapshot, compare
complete -c $c -n '__roce_doctor_using gid nccl-env nccl' -l nccl-version -x -d 'Advise for this NCCL version (X.Y.Z)'
complete -c $c -n '__roce_doctor_using snapshot' -l json-lines -d 'Write the document on one line'
complete -c $c -n '__roce_doctor_using compare' -F -a - -d 'Snapshot file, directory or - for stdin'

# counters
complete -c $c -n '__roce_doctor_using counters' -s i -l interval -x -d 'Seconds between readings'
complete -c $c -n '__roce_doctor_using counters' -s n -l count -x -d 'Readings to report'
complete -c $c -n '__roce_doctor_using counters' -l format -x -a 'text json prometheus' -d 'Output format'

# explain
complete -c $c -n '__roce_doctor_using explain' -F -a - -d 'Log file, or - for stdin'
complete -c $c -n '__roce_doctor_using explain' -l with-check -d 'Run check on this host too and join the two'
complete -c $c -n '__roce_doctor_using explain' -l list -d 'List every log pattern and read nothing'

# mesh
complete -c $c -n '__roce_doctor_using mesh' -l plan -x -d 'Print the plan for N nodes and its time'
complete -c $c -n '__roce_doctor_using mesh' -l plan-kind -x -a 'all-pairs ring rail' -d 'Which pairs meet'
complete -c $c -n '__roce_doctor_using mesh' -l rails -x -d 'Rails (RoCE ports) per node'
complete -c $c -n '__roce_doctor_using mesh' -l seconds -x -d 'Seconds of bw per test'
complete -c $c -n '__roce_doctor_using mesh' -l dry-run -d 'Inside a launcher: rank, size, rendezvous and the plan'
complete -c $c -n '__roce_doctor_using mesh' -l rank -x -d "This node's rank"
complete -c $c -n '__roce_doctor_using mesh' -l size -x -d 'The number of nodes'
complete -c $c -n '__roce_doctor_using mesh' -l rendezvous -x -a '(__fish_print_hostnames)' -d "Rank 0's host"
complete -c $c -n '__roce_doctor_using mesh' -l message-size -x -d "bw's message size per test"
complete -c $c -n '__roce_doctor_using mesh' -l expect-gbps -x -d 'A link is odd below N Gb/s'
complete -c $c -n '__roce_doctor_using mesh' -l expect-link-pct -x -d 'A link is odd below P% of its link rate'
complete -c $c -n '__roce_doctor_using mesh' -l time-limit -x -d 'Stop before a round that would pass S seconds'
complete -c $c -n '__roce_doctor_using mesh' -l register-timeout -x -d 'How long rank 0 waits for every rank'
complete -c $c -n '__roce_doctor_using mesh' -l serve-port -x -d "TCP port of this node's serve"
complete -c $c -n '__roce_doctor_using mesh' -l plot -r -F -d 'Write the matrix per rail as an SVG heatmap'

# serve, bw, lat
complete -c $c -n '__roce_doctor_using serve bw lat' -s d -l device -x -a '(__roce_doctor_devices)' -d 'Local RDMA port'
complete -c $c -n '__roce_doctor_using serve bw lat' -s p -l port -x -d 'TCP port (default 18516)'
complete -c $c -n '__roce_doctor_using serve bw lat' -s x -l gid-index -x -d 'GID index'
complete -c $c -n '__roce_doctor_using serve' -l bind -x -d 'Listen on this address only'
complete -c $c -n '__roce_doctor_using serve' -l allow -x -d 'Accept clients from CIDR (any: everyone)'
complete -c $c -n '__roce_doctor_using serve' -l max-mem -x -d 'Refuse tests that need more MiB registered'
complete -c $c -n '__roce_doctor_using serve' -l max-qps -x -d 'Refuse tests with more QPs'
complete -c $c -n '__roce_doctor_using serve' -l max-seconds -x -d 'Stop a message size that runs longer'
complete -c $c -n '__roce_doctor_using bw lat' -a '(__fish_print_hostnames)' -d 'Peer running roce-doctor serve'
complete -c $c -n '__roce_doctor_using bw lat' -s a -l sweep -d 'Every size from 2 B to 8 MiB'
complete -c $c -n '__roce_doctor_using bw lat' -s s -l size -x -d 'Message size (4096, 64K, 1M ...)'
complete -c $c -n '__roce_doctor_using bw lat' -s n -l iters -x -d 'Iterations per size'
complete -c $c -n '__roce_doctor_using bw lat' -s I -l inline -x -d 'Send messages up to this size inline'
complete -c $c -n '__roce_doctor_using bw lat' -l mtu -x -a '256 512 1024 2048 4096' -d 'Path MTU'
complete -c $c -n '__roce_doctor_using bw lat' -l no-verify -d 'Do not check the data pattern'
complete -c $c -n '__roce_doctor_using bw' -l op -x -a 'write read send' -d 'RDMA operation'
complete -c $c -n '__roce_doctor_using bw' -l bidir -d 'Both directions at once'
complete -c $c -n '__roce_doctor_using bw' -s D -l duration -x -d 'Seconds for each size'
complete -c $c -n '__roce_doctor_using bw' -s q -l qps -x -d 'Queue pairs'
complete -c $c -n '__roce_doctor_using bw' -l qps-sweep -d 'Run the size with 1, 2, 4 and 8 QPs'
complete -c $c -n '__roce_doctor_using bw' -s t -l tx-depth -x -d 'Work requests in flight per QP'
complete -c $c -n '__roce_doctor_using bw' -l wait -x -a 'auto poll event' -d 'Between completions: spin or sleep'
complete -c $c -n '__roce_doctor_using bw' -l expect-gbps -x -d 'Exit 1 when a size averages less than N Gb/s'
complete -c $c -n '__roce_doctor_using bw' -l expect-link-pct -x -d 'Exit 1 when a size averages less than P % of the link rate'
