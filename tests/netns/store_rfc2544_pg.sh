# store_rfc2544.sh on a PostgreSQL store (a throwaway cluster).
WR_STORE=pg exec bash "$(dirname "$0")/store_rfc2544.sh"
