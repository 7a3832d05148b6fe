# bash completion for relayctl(1): commands, options, node IDs and names for `send --to` and `lookup`
# taken from `relayctl --json peers` (neighbours and remote nodes), and the IDs of messages waiting
# for a key for `cancel` and `mailbox drop` from `relayctl --json mailbox`. Installed as
# /usr/share/bash-completion/completions/relayctl.

# The node IDs the running daemon knows and their names (those without spaces or quotes), one per
# line; nothing when it cannot be reached. relayctl takes either.
_relayctl_node_ids()
{
    local socket_args=("$@") peers
    peers=$(relayctl "${socket_args[@]}" --json peers 2>/dev/null)
    {
        grep -o '"nodeID":"[0-9a-f]\{32\}"' <<<"$peers" | cut -d'"' -f4
        grep -o '"name":"[^"\\ ]*"' <<<"$peers" | cut -d'"' -f4 | grep -v '^$'
    } | sort -u
}

# The IDs of this node's messages waiting for a key, one per line.
_relayctl_message_ids()
{
    local socket_args=("$@")
    relayctl "${socket_args[@]}" --json mailbox 2>/dev/null \
        | grep -o '"messageID":"[0-9a-f]\{32\}"' | cut -d'"' -f4 | sort -u
}

_relayctl()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion -n = || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi

    # ControlCommandTests checks this list against ControlCommand (every command) plus help.
    local commands="send peers stats status id mailbox cancel watch lookup doctor help"
    local global="--json --socket --help"
    local command="" socket_args=() args=0 i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --socket|-s) socket_args=(--socket "${words[i + 1]}"); ((i++)) ;;
            --socket=*) socket_args=("${words[i]}") ;;
            --to|-t|--config|-c) ((i++)) ;;
            -*) ;;
            *) if [[ -z $command ]]; then command=${words[i]}; else ((args++)); fi ;;
        esac
    done

    case $prev in
        --socket|-s|--config|-c)
            COMPREPLY=($(compgen -f -- "$cur"))
            return
            ;;
        --to|-t)
            COMPREPLY=($(compgen -W "$(_relayctl_node_ids "${socket_args[@]}")" -- "$cur"))
            return
            ;;
    esac
    if [[ $cur == --to=* ]]; then
        COMPREPLY=($(compgen -W "$(_relayctl_node_ids "${socket_args[@]}")" -- "${cur#--to=}"))
        return
    fi

    case $command in
        "") COMPREPLY=($(compgen -W "$commands $global" -- "$cur")) ;;
        send) [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--to --detach $global" -- "$cur")) ;;
        cancel)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$global" -- "$cur"))
            elif ((args == 0)); then
                COMPREPLY=($(compgen -W "$(_relayctl_message_ids "${socket_args[@]}")" -- "$cur"))
            fi
            ;;
        mailbox)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$global" -- "$cur"))
            elif ((args == 0)); then
                COMPREPLY=($(compgen -W "drop cancel" -- "$cur"))
            elif ((args == 1)); then
                COMPREPLY=($(compgen -W "$(_relayctl_message_ids "${socket_args[@]}")" -- "$cur"))
            fi
            ;;
        lookup)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$global" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$(_relayctl_node_ids "${socket_args[@]}")" -- "$cur"))
            fi
            ;;
        stats) COMPREPLY=($(compgen -W "--openmetrics --prometheus $global" -- "$cur")) ;;
        doctor) COMPREPLY=($(compgen -W "--config $global" -- "$cur")) ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$global" -- "$cur")) ;;
    esac
}
complete -F _relayctl relayctl
