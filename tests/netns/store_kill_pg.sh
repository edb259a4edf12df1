# store_kill.sh on a PostgreSQL store (a throwaway cluster).
WR_STORE=pg exec bash "$(dirname "$0")/store_kill.sh"
