package dev.frontrun.internal.sql.syntax;

import java.util.Set;

/**
 * Which function calls are known not to touch shared data. A user-defined function may read or write
 * any table, so any function outside this list makes the statement opaque (a write on every table);
 * the sequence functions are modelled as accesses to the sequence, and the advisory locks a transaction
 * holds to its end as accesses to the lock's key. Session-level advisory locks stay opaque: a physical
 * connection's close releases them, which no step announces.
 */
public final class FunctionPolicy {

    /** What a call does to shared data. */
    public enum Effect {
        /** Computes from its arguments (or session state) only. */
        PURE,
        /** {@code nextval}: takes the next value of the sequence named by the first argument. */
        SEQUENCE_NEXT,
        /** {@code setval}: repositions the sequence named by the first argument. */
        SEQUENCE_SET,
        /** {@code pg_advisory_xact_lock} (and {@code _shared}): waits for an advisory lock, held to the transaction's end. */
        ADVISORY_XACT_LOCK,
        /** {@code pg_try_advisory_xact_lock} (and {@code _shared}): takes the lock if it is free, never waits. */
        ADVISORY_XACT_TRY,
        /** Anything else: may read or write any table. */
        UNKNOWN
    }

    private static final Set<String> PURE = Set.of(
            // arithmetic and comparison
            "abs", "ceil", "ceiling", "floor", "round", "trunc", "mod", "power", "pow", "sqrt", "cbrt", "exp", "ln",
            "log", "log10", "sign", "pi", "degrees", "radians", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
            "random", "greatest", "least", "coalesce", "nullif", "width_bucket", "div", "gcd", "lcm", "scale",
            // strings
            "lower", "upper", "initcap", "length", "char_length", "character_length", "octet_length", "bit_length",
            "substring", "substr", "position", "strpos", "trim", "btrim", "ltrim", "rtrim", "lpad", "rpad", "replace",
            "translate", "concat", "concat_ws", "left", "right", "repeat", "reverse", "split_part", "starts_with",
            "format", "md5", "sha256", "encode", "decode", "to_hex", "ascii", "chr", "quote_ident", "quote_literal",
            "quote_nullable", "regexp_replace", "regexp_matches", "regexp_match", "regexp_like", "regexp_count",
            "regexp_split_to_array", "regexp_split_to_table", "string_to_array", "array_to_string", "overlay",
            "unaccent", "to_tsvector", "to_tsquery", "plainto_tsquery", "phraseto_tsquery", "websearch_to_tsquery",
            "ts_rank", "ts_rank_cd", "ts_headline", "similarity", "casefold", "normalize", "hashtext",
            "hashtextextended",
            // date and time
            "now", "current_timestamp", "current_date", "current_time", "localtime", "localtimestamp",
            "clock_timestamp", "statement_timestamp", "transaction_timestamp", "timeofday", "date_trunc", "date_part",
            "extract", "age", "make_date", "make_time", "make_timestamp", "make_timestamptz", "make_interval",
            "to_char", "to_date", "to_timestamp", "to_number", "justify_days", "justify_hours", "justify_interval",
            "isfinite", "date_bin", "timezone",
            // aggregates and window functions
            "count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every", "array_agg", "string_agg",
            "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg", "stddev", "stddev_pop", "stddev_samp",
            "variance", "var_pop", "var_samp", "percentile_cont", "percentile_disc", "mode", "listagg", "any_value",
            "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value",
            "last_value", "nth_value",
            // arrays
            "array_length", "array_lower", "array_upper", "array_ndims", "array_dims", "cardinality",
            "array_position", "array_positions", "array_append", "array_prepend", "array_cat", "array_remove",
            "array_replace", "array_fill", "unnest", "generate_series", "generate_subscripts", "trim_array",
            // json
            "to_json", "to_jsonb", "json_build_object", "jsonb_build_object", "json_build_array", "jsonb_build_array",
            "jsonb_set", "jsonb_set_lax", "jsonb_insert", "json_extract_path", "jsonb_extract_path",
            "json_extract_path_text", "jsonb_extract_path_text", "jsonb_array_length", "json_array_length",
            "jsonb_typeof", "json_typeof", "jsonb_strip_nulls", "json_strip_nulls", "jsonb_pretty", "row_to_json",
            "array_to_json", "jsonb_path_query", "jsonb_path_query_array", "jsonb_path_query_first",
            "jsonb_path_exists", "jsonb_path_match", "jsonb_each", "json_each", "jsonb_each_text", "json_each_text",
            "jsonb_array_elements", "json_array_elements", "jsonb_array_elements_text", "json_array_elements_text",
            "jsonb_object_keys", "json_object_keys", "json_object", "jsonb_object", "json_populate_record",
            "jsonb_populate_record", "json_to_record", "jsonb_to_record", "json_to_recordset", "jsonb_to_recordset",
            // uuids, session state and casts written as calls
            "gen_random_uuid", "uuid_generate_v4", "uuidv4", "uuidv7", "currval", "lastval", "version",
            "current_database", "current_schema", "current_schemas", "current_user", "session_user", "user",
            "current_setting", "set_config", "pg_backend_pid", "txid_current", "pg_current_xact_id", "pg_sleep",
            "inet_client_addr", "row", "cast", "any", "some", "all", "exists", "array", "bool", "int2", "int4",
            "int8", "float4", "float8", "numeric", "text", "varchar", "date", "timestamp", "timestamptz", "interval",
            "uuid", "jsonb", "json");

    private FunctionPolicy() {
    }

    /**
     * The effect of a call to {@code name} (folded; {@code schema} {@code null} or {@code pg_catalog}
     * for built-ins).
     */
    public static Effect effect(String schema, String name) {
        if (schema != null && !schema.equals("pg_catalog")) {
            return Effect.UNKNOWN;
        }
        if (name.equals("nextval")) {
            return Effect.SEQUENCE_NEXT;
        }
        if (name.equals("setval")) {
            return Effect.SEQUENCE_SET;
        }
        if (name.equals("pg_advisory_xact_lock") || name.equals("pg_advisory_xact_lock_shared")) {
            return Effect.ADVISORY_XACT_LOCK;
        }
        if (name.equals("pg_try_advisory_xact_lock") || name.equals("pg_try_advisory_xact_lock_shared")) {
            return Effect.ADVISORY_XACT_TRY;
        }
        return PURE.contains(name) ? Effect.PURE : Effect.UNKNOWN;
    }

    /** The sequence named by a {@code nextval}/{@code setval} string argument, or {@code null}. */
    public static TableName sequenceName(String regclassText) {
        return QualifiedNames.fromRegclassText(regclassText);
    }
}
