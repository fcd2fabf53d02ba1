/**
 * SQL conflict detection: turns each statement the JDBC proxy sees into the
 * {@link dev.frontrun.ResourceAccess}es of its scheduling point.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * SqlClassifier classifier = SqlClassifier.forDataSource(rawDataSource);   // one per data source
 * Classification c = classifier.classify(sql);                            // cached by text; never throws
 * StatementAccesses step = c.bind(parameters, aliases.forThread("t0"));   // per execution; no parsing
 * step.accesses();      // report to the engine
 * step.rowsTouched();   // "owners[id=1], visits[*]"
 * c.transactionControl(); c.lockIntent(); c.tablesRead(); c.tablesWritten(); c.hasReturning();
 * }</pre>
 * Pipeline, one package per stage: {@code parse} (text → {@code syntax}: keywords, then a
 * hand-written fast path, then JSqlParser), {@code schema} (catalog: names, primary keys, foreign
 * keys, hazards), {@code plan} (which rows each table access can touch), {@code bind} (parameter
 * values → normalised keys, generated-key aliases) and {@code resource} (resource ids and kinds).
 *
 * <h2>Resource ids</h2>
 * {@code sql:*} every table; {@code sql:t} table t (schema-qualified unless {@code public}, quoted
 * unless plain); {@code sql:t:(k1,k2)} the row with primary key (k1,k2), values normalised per key
 * type ({@code sql:owners:(1)}, {@code sql:users:('bob')}, {@code sql:pets:(@t0.1)} for a generated
 * key); {@code sql:t#members} which rows exist in t; {@code sql:#advisory:(k)} the advisory lock of key k that a
 * transaction holds to its end ({@code pg_advisory_xact_lock}, its try and shared forms: a write of the key, released by
 * the commit or rollback that publishes the transaction's writes), {@code sql:#advisory} every advisory lock (a key not
 * known). Session-level advisory locks stay opaque: closing a connection releases them unannounced.
 *
 * <h2>Why string equality is enough: weak and strong kinds</h2>
 * The engine only compares accesses on equal resource ids, using the conflict table of
 * {@link dev.frontrun.Access} (WRITE conflicts with all; READ with WRITE and WEAK_WRITE; WEAK_WRITE
 * with WRITE and READ; WEAK_READ only with WRITE). Each level reports on its own id and, weakly, on
 * every coarser id that contains it:
 * <ul>
 *   <li>a row access: the kind (READ/WRITE) on {@code sql:t:(k)}, plus WEAK_READ/WEAK_WRITE on {@code sql:t};</li>
 *   <li>a table (predicate) access: READ/WRITE on {@code sql:t}; a predicate read also READs
 *       {@code sql:t#members};</li>
 *   <li>inserting or deleting a row: additionally WEAK_WRITE on {@code sql:t#members};</li>
 *   <li>every statement touching data: WEAK_WRITE on {@code sql:*} if it writes, else WEAK_READ;</li>
 *   <li>a statement that cannot be analysed (or may touch any table): WRITE (or READ) on {@code sql:*}.</li>
 * </ul>
 * Soundness: two accesses that may touch a common item, one writing it, share some id on which
 * they conflict. Same row: the strong kinds on the row id. Row vs table of the same t: the strong
 * table kind against the weak row kind on {@code sql:t} (READ–WEAK_WRITE, WRITE–WEAK_READ,
 * WRITE–WEAK_WRITE all conflict). Table vs table: strong kinds. Anything vs an opaque statement: its
 * strong kind against the weak endpoint kind on {@code sql:*}. A fresh row vs a predicate read: WEAK_WRITE
 * vs READ on {@code #members}. Precision: accesses that cannot overlap never conflict — different rows
 * only meet on {@code sql:t} and {@code sql:*} with weak kinds (WEAK_READ never conflicts with a weak
 * kind; WEAK_WRITE–WEAK_WRITE does not conflict), so two row writes of different keys, two inserts of
 * different keys, and any two reads are independent. {@code ResourceSchemeTest} checks both directions
 * exhaustively against a data-item model.
 *
 * <h2>Refinement and fallback: row ⊂ table ⊂ endpoint</h2>
 * Row level needs equality or IN (or {@code = any(?)}) on the full primary key in a top-level
 * conjunct, a key type with a normalisation, and usable parameter values; otherwise that table is
 * reported at table level. Unknown relations, views, partitioned or inherited tables, rules and
 * row-level security give endpoint level in the access's direction; writes to tables with triggers
 * an endpoint write; volatile or unknown functions (see below), unparseable text and several statements in one
 * string an endpoint write; a relation whose alias renames its columns ({@code t AS s(a, b)}) takes no condition
 * by column name. Foreign keys add reads of the referenced rows (inserts, key updates) and reads or
 * writes of referencing tables (deletes, cascades); other unique or exclusion constraints make writes
 * table level. Every failure falls back to the next coarser level and is recorded in
 * {@link dev.frontrun.internal.sql.Classification#notes()}.
 *
 * <h2>Functions</h2>
 * A call is modelled from what is known of the function, never finer than PostgreSQL's own declaration of it:
 * <ul>
 *   <li>{@link dev.frontrun.internal.sql.syntax.FunctionPolicy}'s list: built-ins that touch no table (some are
 *       volatile, like {@code random()} or {@code clock_timestamp()}), the sequence functions and the advisory locks a
 *       transaction holds;</li>
 *   <li>any other name is looked up in {@code pg_proc}: by itself the first time it is called, then with every
 *       table at each schema read (an exploration's start), one query for all names seen; coarsest over the name's
 *       overloads (and a user-defined aggregate's support functions): an unqualified name over every schema, a
 *       qualified one over its schema;</li>
 *   <li>immutable and built in ({@code pg_catalog}): nothing, like the list ({@code numrange}, {@code int4range});</li>
 *   <li>otherwise immutable or stable: {@code READ} of {@code sql:*}. PostgreSQL's promise for these is that they do
 *       not modify the database, and it refuses data changes in their SQL and PL/pgSQL bodies; but they may read any
 *       table (a SQL function's query, {@code table_to_xml}, a catalog after DDL), which the statement's own table
 *       accesses do not show, so the read is of everything rather than of nothing;</li>
 *   <li>volatile, not found, or the catalog unreadable: the statement is a {@code WRITE} of {@code sql:*}, as any
 *       opaque statement.</li>
 * </ul>
 * Like PostgreSQL's planner, the analysis takes a declaration at its word: a stable function that calls a volatile
 * one that writes (which PostgreSQL's documentation warns against but does not prevent) is not seen writing.
 *
 * <h2>Generated keys</h2>
 * An INSERT whose key the database generates takes an alias per thread and table ({@code @t0.1} is
 * thread t0's first), so its resource id does not depend on the interleaving; after execution the proxy
 * maps the concrete key to the alias ({@link dev.frontrun.internal.sql.bind.GeneratedKeyAliases#record}) and later
 * statements naming that key use the alias. {@code nextval} is modelled as commuting with itself for
 * the same reason. Without aliases such an INSERT is a table-level write.
 *
 * <h2>Known limits</h2>
 * Unqualified names resolve along the data source's default search path (a later {@code SET
 * search_path} is not followed); deferred constraints, user-defined operators and functions called
 * from defaults or domain checks are not modelled; INSERT … SELECT rows get no generated-key aliases.
 */
package dev.frontrun.internal.sql;
