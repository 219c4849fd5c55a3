// Command searchbench measures search latency and dense-index recall of the query service on a generated
// corpus of N claims in one workspace (10k, 100k, 1M, ... selectable with -sizes).
//
// For each size it creates a fresh database on the server of -db, applies the migrations, bulk-loads the corpus
// with COPY (secondary indexes dropped during the load and rebuilt after, as a bulk import would), then:
//
//   - runs the query service in-process behind a real HTTP server and measures POST /search end to end with
//     the query embedding precomputed, so the figures exclude it (p50/p99 over -queries queries);
//   - measures the query embedding itself separately with the local model (USE-lite) when its weights are
//     present (-model-dir), since that is what a deployment pays on top;
//   - measures recall@10 of the dense HNSW scan (at each -ef) against an exact scan with the same filters, at
//     full precision (the index holds half-precision vectors, so the recall includes that rounding), and of an
//     exact half-precision scan (the rounding alone); -compare-single adds a single-precision index's recall.
//
// Each size reports the dense index's size, the CPU time a search costs the Postgres backends and this process
// (read from /proc, so the server must be local), and the load average before and after its runs: on a shared
// machine the latencies grow with other work, the CPU times do not. -reuse with -keep re-measures a kept
// database (migrated and pinned first) without loading it again.
//
// The corpus: subjects with a handful of attributes each (predicates from a fixed vocabulary), 10% of slots
// with an older superseded value, 1% private claims of other agents; vectors are synthetic, clustered 512-d
// unit vectors (embedding 1M texts with the local model would take hours on 2 cores; the index does not care
// where vectors come from). Queries are questions about random subjects whose vectors lie near their claims.
//
// -tenants loads many workspaces of mixed sizes into one database instead and compares dense-index layouts
// per size class (tenants.go).
//
// It prints Markdown tables and writes JSON (-out).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/query"
)

const (
	dim       = 512
	workspace = "bench"
	agent     = "agent-0"
	model     = "synthetic-512"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "searchbench:", err)
		os.Exit(1)
	}
}

type config struct {
	db        string
	sizes     []int
	queries   int
	k         int
	efs       []int
	recallQs  int
	out       string
	modelDir  string
	keep      bool
	reuse     bool
	seed      uint64
	timeout   time.Duration
	maxWorkMB int
	workers   int
	searchEf  int

	compareSingle bool
	tenants       []tenantClass
	indexMin      int
	layouts       map[string]bool
}

func run() error {
	var c config
	var sizes, efs string
	flag.StringVar(&c.db, "db", envOr("MNEME_DATABASE_URL", "postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable"), "Postgres URL of a role that may CREATE DATABASE; a database per size is created beside it")
	flag.StringVar(&sizes, "sizes", "10000,100000", "corpus sizes (claims), comma-separated, e.g. 10000,100000,1000000")
	flag.IntVar(&c.queries, "queries", 300, "search queries timed per size")
	flag.IntVar(&c.k, "k", 10, "k of every search")
	flag.StringVar(&efs, "ef", "64,100,200", "HNSW ef_search values whose recall and dense query time are measured")
	flag.BoolVar(&c.compareSingle, "compare-single", false, "also build a single-precision HNSW index and measure its recall (the cost of half precision)")
	flag.IntVar(&c.searchEf, "search-ef", 0, "ef_search of the timed searches (0: the service default, MNEME_QUERY_EF_SEARCH)")
	flag.IntVar(&c.recallQs, "recall-queries", 100, "queries for recall@10 (0: no recall measurement)")
	flag.StringVar(&c.out, "out", "bench-results/searchbench.json", "JSON results file")
	flag.StringVar(&c.modelDir, "model-dir", embedding.DefaultModelDir(), "USE-lite weights for timing the query embedding (skipped when absent)")
	flag.BoolVar(&c.keep, "keep", false, "keep the generated databases")
	flag.BoolVar(&c.reuse, "reuse", false, "reuse a kept database of the same size instead of generating it")
	flag.Uint64Var(&c.seed, "seed", 1, "random seed")
	flag.DurationVar(&c.timeout, "timeout", 2*time.Hour, "overall time limit")
	flag.IntVar(&c.maxWorkMB, "maintenance-work-mem-mb", 0, "maintenance_work_mem for the index builds (0: the server's)")
	flag.IntVar(&c.workers, "build-workers", -1, "max_parallel_maintenance_workers for the index builds (-1: the server's)")
	var tenants string
	flag.StringVar(&tenants, "tenants", "", "many workspaces in one database instead of -sizes: size classes <workspaces>x<claims>, e.g. 1x50000,3x10000,10x2000,300x200 (-queries per class)")
	flag.IntVar(&c.indexMin, "index-min", store.DefaultWorkspaceIndexMin, "with -tenants: vectors at which a workspace gets its own HNSW index")
	var layouts string
	flag.StringVar(&layouts, "layouts", "before,custom,per-workspace", "with -tenants: layouts measured — before (store-wide index, cached plans), custom (store-wide index, custom plans), per-workspace")
	flag.Parse()
	var err error
	if tenants != "" {
		if c.tenants, err = parseTenants(tenants); err != nil {
			return fmt.Errorf("-tenants: %w", err)
		}
		c.layouts = map[string]bool{}
		for _, l := range strings.Split(layouts, ",") {
			switch l = strings.TrimSpace(l); l {
			case "before", "custom", "per-workspace":
				c.layouts[l] = true
			default:
				return fmt.Errorf("-layouts: unknown layout %q (before, custom, per-workspace)", l)
			}
		}
	}
	if c.sizes, err = ints(sizes); err != nil {
		return fmt.Errorf("-sizes: %w", err)
	}
	if c.efs, err = ints(efs); err != nil {
		return fmt.Errorf("-ef: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(log)

	if c.tenants != nil {
		return benchTenants(ctx, c, c.tenants, log)
	}
	embedStats, err := measureEmbedding(ctx, c, log)
	if err != nil {
		return err
	}
	var results []sizeResult
	for _, n := range c.sizes {
		r, err := benchSize(ctx, c, n, log)
		if err != nil {
			return fmt.Errorf("size %d: %w", n, err)
		}
		results = append(results, r)
	}
	report := struct {
		Machine        string       `json:"machine"`
		Date           string       `json:"date"`
		K              int          `json:"k"`
		QueryEmbedding *latency     `json:"query_embedding,omitempty"`
		Sizes          []sizeResult `json:"sizes"`
	}{Machine: machine(), Date: time.Now().UTC().Format(time.RFC3339), K: c.k, QueryEmbedding: embedStats, Sizes: results}
	printMarkdown(os.Stdout, report.QueryEmbedding, results, c)
	if c.out != "" {
		if err := os.MkdirAll(dirOf(c.out), 0o755); err != nil {
			return err
		}
		b, _ := json.MarshalIndent(report, "", "  ")
		if err := os.WriteFile(c.out, append(b, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Printf("\nJSON: %s\n", c.out)
	}
	return nil
}

type latency struct {
	N    int     `json:"n"`
	P50  float64 `json:"p50_ms"`
	P90  float64 `json:"p90_ms"`
	P99  float64 `json:"p99_ms"`
	Mean float64 `json:"mean_ms"`
}

func summarize(ds []time.Duration) *latency {
	if len(ds) == 0 {
		return nil
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	q := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return ms(s[max(0, min(i, len(s)-1))])
	}
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	return &latency{N: len(s), P50: q(0.50), P90: q(0.90), P99: q(0.99), Mean: ms(sum / time.Duration(len(s)))}
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }

type efResult struct {
	Precision  string   `json:"precision"`
	EfSearch   int      `json:"ef_search"`
	RecallAt10 float64  `json:"recall_at_10"`
	RecallAt1  float64  `json:"recall_at_1"`
	Dense      *latency `json:"dense_query"`
}

type sizeResult struct {
	Claims      int                 `json:"claims"`
	Subjects    int                 `json:"subjects"`
	LoadSeconds float64             `json:"load_seconds"`
	IndexSecs   float64             `json:"index_build_seconds"`
	DenseSecs   float64             `json:"dense_index_build_seconds"`
	DenseMB     float64             `json:"dense_index_mb"`
	SingleSecs  float64             `json:"single_index_build_seconds,omitempty"`
	SingleMB    float64             `json:"single_index_mb,omitempty"`
	DatabaseMB  float64             `json:"database_mb"`
	SearchEf    int                 `json:"search_ef"`
	CPUPostgres float64             `json:"cpu_postgres_ms_per_search"`
	CPUProcess  float64             `json:"cpu_searchbench_ms_per_search"`
	LoadBefore  string              `json:"loadavg_before"`
	LoadAfter   string              `json:"loadavg_after"`
	Search      *latency            `json:"search_http"`
	Phases      map[string]*latency `json:"search_phases"`
	Exact       *latency            `json:"exact_dense_query"`
	EfSearch    []efResult          `json:"ef"`
	MeanClaims  float64             `json:"mean_claims_returned"`
	MeanTokens  float64             `json:"mean_context_tokens"`
}

// corpus generation ---------------------------------------------------------------------------------------

var predicates = []string{"lives in", "works at", "born in", "married to", "manager", "favourite food", "speaks",
	"plays", "drives", "owns", "studies", "hometown", "employer", "job title", "email", "phone", "birthday",
	"favourite colour", "allergic to", "prefers", "reads", "supports team", "member of", "nationality",
	"religion", "pet", "hobby", "deadline", "budget", "status", "owner", "location", "language", "sibling",
	"mentor", "client", "vendor", "salary", "height", "age"}

var firstNames = strings.Fields(`Alice Bob Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert
	Sybil Trent Victor Walter Xena Yusuf Zara Amir Bea Chen Dmitri Elif Farah Goran Hana Ines Jonas Kemal Lena Marek
	Nadia Omar Pia Quinn Rosa Sven Tomas Uma Vera Wen Ximena Yara Zeno Anika Bruno Cyra Dario Esme Felix Gia Hugo Ilse
	Jin Kai Lior Mina Nils Oona Paz Raul Saoirse Teo Ugo Vik Wilma Yan Zoe Ada Basil Clio Dane Eva Finn Gil Hal Ida Jon`)

var lastNames = strings.Fields(`Smith Jones Garcia Muller Rossi Novak Kowalski Silva Tanaka Kim Nguyen Patel Khan
	Cohen Dubois Jensen Larsen Berg Horvat Popescu Ivanova Petrov Costa Lopez Moreau Weber Fischer Wagner Becker Hoffmann
	Schulz Koch Richter Klein Wolf Neumann Schwarz Zimmermann Braun Hartmann Lange Schmitt Werner Krause Meier Lehmann
	Schmid Schulze Maier Kohler Herrmann Walter Mayer Huber Kaiser Fuchs Peters Lang Scholz Moller Weiss Jung Hahn
	Schubert Vogel Friedrich Keller Gunther Frank Berger Winkler Roth Beck Lorenz Baumann Franke Albrecht Schuster`)

var objects = strings.Fields(`Berlin Paris Madrid Lisbon Rome Vienna Prague Warsaw Oslo Dublin Athens Cairo Lagos Nairobi
	Tokyo Seoul Lima Quito Austin Denver Boston Toronto Sydney Perth Acme Globex Initech Umbrella Hooli Vandelay Stark
	pizza sushi ramen tacos curry falafel pasta paella English French Spanish German Italian Polish Turkish Hindi
	chess tennis football cricket hockey golf piano violin guitar Tesla Volvo Fiat Toyota red blue green yellow
	peanuts pollen gluten dairy cats dogs parrots hamsters Buddhism Islam Judaism Christianity Hinduism engineer doctor
	teacher lawyer nurse chef pilot artist writer analyst March April May June July August September October`)

// gen makes the corpus. Vectors are hierarchical, like text embeddings: a topic per group of subjects, a
// subject vector near its topic, a claim vector near its subject; a question about a claim is near that claim.
// Every vector is a deterministic function of (seed, what it embeds), so queries can be made for any claim.
type gen struct {
	seed   uint64
	topics int
	rng    *rand.Rand
	// ns tells apart the claim ids of workspaces loaded into one database (-tenants); 0 in one workspace.
	ns uint32
}

// Noise norms: cos(subject, topic) ≈ 0.8, cos(claim, subject) ≈ 0.85, cos(question, claim) ≈ 0.85; claims of
// one subject ≈ 0.7 to each other, of one topic ≈ 0.45, unrelated ≈ 0.
const (
	subjectNoise  = 0.75
	claimNoise    = 0.6
	questionNoise = 0.6
)

func newGen(seed uint64, topics int) *gen {
	return &gen{seed: seed, topics: max(1, topics), rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// vec returns the unit vector of (kind, a, b): center plus Gaussian noise of the given norm (center nil: random).
func (g *gen) vec(kind, a, b uint64, center []float32, noise float64) []float32 {
	r := rand.New(rand.NewPCG(g.seed^kind*0x9e3779b97f4a7c15, a*0x100000001b3+b))
	v := make([]float32, dim)
	sigma := noise / math.Sqrt(dim)
	var n float64
	for i := range v {
		x := r.NormFloat64()
		if center != nil {
			x = float64(center[i]) + sigma*x
		}
		v[i] = float32(x)
		n += x * x
	}
	inv := float32(1 / math.Sqrt(n))
	for i := range v {
		v[i] *= inv
	}
	return v
}

func (g *gen) subjectVec(s int) []float32 {
	topic := g.vec(1, uint64(s%g.topics), 0, nil, 0)
	return g.vec(2, uint64(s), 0, topic, subjectNoise)
}

// claimVec is the vector of subject s's j-th attribute in its version ver (0 current, 1 older).
func (g *gen) claimVec(s, j, ver int, subject []float32) []float32 {
	if subject == nil {
		subject = g.subjectVec(s)
	}
	return g.vec(3, uint64(s), uint64(j)<<8|uint64(ver), subject, claimNoise)
}

func subjectName(i int) string {
	f, l := len(firstNames), len(lastNames)
	name := firstNames[i%f] + " " + lastNames[(i/f)%l]
	if k := i / (f * l); k > 0 {
		name += " " + strconv.Itoa(k+1)
	}
	return name
}

// claimsPerSubject is the mean attribute count of a subject.
const claimsPerSubject = 5

type row struct {
	id                                      string
	subject, subjectKey, predicate, predKey string
	object, objectKey, text, scope, owner   string
	validFrom                               time.Time
	seq                                     int64
	status                                  string
	validTo                                 *time.Time
	vector                                  []float32
	versions                                int
	supersededBy                            string
	recordedAt, retiredAt, secondRecordedAt time.Time
}

// rows generates n claims: for each subject, claimsPerSubject predicates; 10% of slots get an older value that
// the newer one superseded; 1% of claims are private to other agents.
func (g *gen) rows(n int, emit func(r *row) error) (subjects int, err error) {
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	count := 0
	for s := 0; count < n; s++ {
		subjects++
		name := subjectName(s)
		key := canon.SubjectKey(name)
		for j := 0; j < claimsPerSubject && count < n; j++ {
			p := predicates[(s+j*3)%len(predicates)]
			sv := g.subjectVec(s)
			mk := func(obj string, vf time.Time, seq int64, ver int) *row {
				r := &row{id: g.uuidFor(s, j, seq), subject: name, subjectKey: key, predicate: p, predKey: canon.PredicateKey(p),
					object: obj, objectKey: canon.ObjectKey(obj), scope: "shared", owner: agent, validFrom: vf, seq: seq,
					status: "active", versions: 1, recordedAt: vf.Add(time.Hour)}
				r.text = canon.ClaimText(name, p, obj)
				r.vector = g.claimVec(s, j, ver, sv)
				if g.rng.IntN(100) == 0 {
					r.scope, r.owner = "private", "agent-"+strconv.Itoa(1+g.rng.IntN(5))
				}
				return r
			}
			vf := base.Add(time.Duration(g.rng.IntN(4*365*24)) * time.Hour)
			cur := mk(objects[g.rng.IntN(len(objects))], vf, int64(count), 0)
			if g.rng.IntN(10) == 0 && count+1 < n {
				old := mk(objects[g.rng.IntN(len(objects))], vf.Add(-time.Duration(1+g.rng.IntN(700))*24*time.Hour), int64(count)+1, 1)
				old.scope, old.owner = cur.scope, cur.owner
				old.id = g.uuidFor(s, j, -1)
				old.status, old.versions, old.supersededBy = "superseded", 2, cur.id
				vt := cur.validFrom
				old.validTo = &vt
				old.retiredAt, old.secondRecordedAt = cur.recordedAt, cur.recordedAt
				if err := emit(old); err != nil {
					return subjects, err
				}
				count++
			}
			if err := emit(cur); err != nil {
				return subjects, err
			}
			count++
		}
	}
	return subjects, nil
}

func (g *gen) uuidFor(s, j int, seq int64) string {
	if g.ns != 0 {
		// Unique per (subject, attribute, current or older value) within the workspace.
		old := 0
		if seq < 0 {
			old = 1
		}
		return fmt.Sprintf("%08x-%04x-4000-8%03x-%012x", g.ns, uint16(j), old, uint64(s))
	}
	x := uint64(s)*1_000_003 + uint64(j)*7 + uint64(seq+2)*0x9e3779b9
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(s), uint16(j), uint16(seq+2)&0xfff, uint16(x>>20)&0xfff, x&0xffffffffffff)
}

// loading -------------------------------------------------------------------------------------------------

func benchSize(ctx context.Context, c config, n int, log *slog.Logger) (sizeResult, error) {
	res := sizeResult{Claims: n}
	dbName := fmt.Sprintf("mneme_searchbench_%d", n)
	dbURL, err := pgtest.WithDatabase(c.db, dbName)
	if err != nil {
		return res, err
	}
	// A topic per ~20 subjects, at every size.
	g := newGen(c.seed, max(10, n/(claimsPerSubject*20)))
	fresh := !c.reuse || !databaseExists(ctx, c.db, dbName)
	if fresh {
		if err := recreateDatabase(ctx, c.db, dbName); err != nil {
			return res, err
		}
	}
	pool, err := store.Connect(ctx, dbURL, 30*time.Second)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	if !c.keep {
		defer func() {
			pool.Close()
			_ = pgtest.DropDatabase(context.WithoutCancel(ctx), c.db, dbName)
		}()
	}
	// Also on a reused database: it gets the migrations and the dense index of the code measured.
	if _, err := store.Migrate(ctx, pool); err != nil {
		return res, err
	}
	if err := store.PinEmbedding(ctx, pool, model, dim); err != nil {
		return res, err
	}
	if fresh {
		log.Info("loading", "claims", n, "database", dbName)
		t0 := time.Now()
		defs, err := dropIndexes(ctx, pool)
		if err != nil {
			return res, err
		}
		subjects, err := load(ctx, pool, g, n)
		if err != nil {
			return res, err
		}
		res.Subjects = subjects
		res.LoadSeconds = time.Since(t0).Seconds()
		t1 := time.Now()
		log.Info("building indexes", "count", len(defs))
		if res.DenseSecs, err = createIndexes(ctx, dbURL, defs, c.maxWorkMB, c.workers); err != nil {
			return res, err
		}
		// The workspace's own HNSW index (the layout of pkg/store/dense.go); a corpus below the threshold is
		// searched exactly, as the service would.
		t2 := time.Now()
		if _, err := store.IndexWorkspaces(ctx, pool, store.DefaultWorkspaceIndexMin); err != nil {
			return res, err
		}
		res.DenseSecs = time.Since(t2).Seconds()
		res.IndexSecs = time.Since(t1).Seconds()
		if _, err := pool.Exec(ctx, `ANALYZE`); err != nil {
			return res, err
		}
		log.Info("loaded", "claims", n, "load_s", res.LoadSeconds, "index_s", res.IndexSecs)
	} else {
		_, subjects := countOnly(n)
		res.Subjects = subjects
	}

	if err := pool.QueryRow(ctx, `SELECT `+denseIndexMBSQL+`, pg_database_size(current_database()) / 1048576.0`).Scan(&res.DenseMB, &res.DatabaseMB); err != nil {
		return res, err
	}
	res.LoadBefore = loadavg()
	// Extra queries at the end warm the service up without being measured.
	queries := makeQueries(g, n, max(c.queries, c.recallQs)+warmups)
	if err := searchLatency(ctx, c, pool, queries, &res); err != nil {
		return res, err
	}
	if c.recallQs > 0 {
		if err := recall(ctx, c, pool, dbURL, queries[:min(c.recallQs, len(queries))], &res); err != nil {
			return res, err
		}
	}
	res.LoadAfter = loadavg()
	return res, nil
}

func countOnly(n int) (int, int) {
	// Subjects needed for n claims: every subject has claimsPerSubject slots, 10% with a second value.
	return n, int(math.Ceil(float64(n) / (claimsPerSubject * 1.1)))
}

// dropIndexes drops the secondary indexes of the bulk-loaded tables and returns their definitions.
func dropIndexes(ctx context.Context, pool *pgxpool.Pool) ([]string, error) {
	rows, err := pool.Query(ctx, `SELECT i.indexname, i.indexdef FROM pg_indexes i
		JOIN pg_class c ON c.relname = i.indexname
		WHERE i.schemaname = 'public' AND i.tablename IN ('claims', 'claim_versions', 'claim_vectors', 'corroborations', 'subject_aliases', 'supersedes')
		  AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)`)
	if err != nil {
		return nil, err
	}
	var names, defs []string
	for rows.Next() {
		var n, d string
		if err := rows.Scan(&n, &d); err != nil {
			rows.Close()
			return nil, err
		}
		names, defs = append(names, n), append(defs, d)
	}
	rows.Close()
	for _, n := range names {
		if _, err := pool.Exec(ctx, `DROP INDEX `+pgx.Identifier{n}.Sanitize()); err != nil {
			return nil, err
		}
	}
	return defs, rows.Err()
}

// createIndexes runs the index definitions, the HNSW one last, and returns how long that one took. The
// settings default to the server's (scripts/pg.sh sizes maintenance_work_mem so the graph fits in memory);
// pgvector's notices, such as the graph no longer fitting into maintenance_work_mem, are logged.
func createIndexes(ctx context.Context, dbURL string, defs []string, workMB, workers int) (float64, error) {
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return 0, err
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		slog.Warn("index build: "+n.Message, "detail", n.Detail, "hint", n.Hint)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var settings []string
	if workMB > 0 {
		settings = append(settings, fmt.Sprintf(`SET maintenance_work_mem = '%dMB'`, workMB))
	}
	if workers >= 0 {
		settings = append(settings, fmt.Sprintf(`SET max_parallel_maintenance_workers = %d`, workers))
	}
	for _, q := range settings {
		if _, err := conn.Exec(ctx, q); err != nil {
			return 0, err
		}
	}
	var mem, par string
	if err := conn.QueryRow(ctx, `SELECT current_setting('maintenance_work_mem'), current_setting('max_parallel_maintenance_workers')`).Scan(&mem, &par); err != nil {
		return 0, err
	}
	slog.Info("index build settings", "maintenance_work_mem", mem, "max_parallel_maintenance_workers", par)
	// The HNSW build dominates; the others are quick.
	sort.SliceStable(defs, func(i, j int) bool { return !strings.Contains(defs[i], "hnsw") && strings.Contains(defs[j], "hnsw") })
	var dense float64
	for _, d := range defs {
		t0 := time.Now()
		if _, err := conn.Exec(ctx, d); err != nil {
			return 0, fmt.Errorf("%s: %w", d, err)
		}
		if strings.Contains(d, "hnsw") {
			dense = time.Since(t0).Seconds()
		}
		if time.Since(t0) > 5*time.Second {
			slog.Info("index built", "seconds", time.Since(t0).Seconds(), "index", truncate(d, 90))
		}
	}
	return dense, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// denseIndexMBSQL is the size of claim_vectors' HNSW indexes in MB.
const denseIndexMBSQL = `(SELECT coalesce(sum(pg_relation_size(i.indexrelid)), 0) / 1048576.0 FROM pg_index i
	JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
	WHERE i.indrelid = 'claim_vectors'::regclass AND a.amname = 'hnsw')`

func load(ctx context.Context, pool *pgxpool.Pool, g *gen, n int) (int, error) {
	l := &loader{pool: pool, aliases: map[[2]string]string{}}
	subjects, err := l.workspace(ctx, workspace, g, n)
	if err != nil {
		return 0, err
	}
	return subjects, l.finish(ctx)
}

// loader bulk-loads generated workspaces through the store's typed rows (store.Write: COPY for claims,
// versions and vectors), in batches across workspaces.
type loader struct {
	pool    *pgxpool.Pool
	batch   store.Changes
	edges   []store.SupersedesRow
	aliases map[[2]string]string
}

const loadBatch = 20000

// write writes ch in one transaction.
func (l *loader) write(ctx context.Context, ch *store.Changes) error {
	return pgx.BeginFunc(ctx, l.pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, ch) })
}

func (l *loader) flush(ctx context.Context) error {
	if len(l.batch.Claims) == 0 {
		return nil
	}
	if err := l.write(ctx, &l.batch); err != nil {
		return err
	}
	l.batch = store.Changes{Claims: l.batch.Claims[:0], Versions: l.batch.Versions[:0], Vectors: l.batch.Vectors[:0],
		Corroborations: l.batch.Corroborations[:0]}
	return nil
}

// workspace generates n claims of g into workspace ws; it returns the number of subjects.
func (l *loader) workspace(ctx context.Context, ws string, g *gen, n int) (int, error) {
	if _, err := l.pool.Exec(ctx, `INSERT INTO workspaces (id, created_by) VALUES ($1, 'searchbench') ON CONFLICT DO NOTHING`, ws); err != nil {
		return 0, err
	}
	prov := `{"agent_id":"agent-0","extractor":"structured","extractor_version":"searchbench"}`
	return g.rows(n, func(r *row) error {
		seq := r.seq
		l.batch.Claims = append(l.batch.Claims, store.ClaimRow{ID: r.id, Workspace: ws, SubjectKey: r.subjectKey, Subject: r.subject,
			PredicateKey: r.predKey, Predicate: r.predicate, SlotKey: r.predKey, Object: r.object, ObjectKey: r.objectKey, Text: r.text,
			Functional: true, Scope: r.scope, OwnerAgent: r.owner, Confidence: 1, ValidFrom: r.validFrom, Sequence: &seq,
			Provenance: prov, Partition: 0, StreamSeq: r.seq, RecordedAt: r.recordedAt, Trust: 1})
		if r.versions == 2 {
			retired := r.retiredAt
			l.batch.Versions = append(l.batch.Versions,
				store.VersionRow{ClaimID: r.id, Version: 1, Workspace: ws, Status: store.StatusActive, ValidFrom: r.validFrom,
					RecordedAt: r.recordedAt, RetiredAt: &retired},
				store.VersionRow{ClaimID: r.id, Version: 2, Workspace: ws, Status: r.status, ValidFrom: r.validFrom, ValidTo: r.validTo,
					RecordedAt: r.secondRecordedAt})
			l.edges = append(l.edges, store.SupersedesRow{ClaimID: r.supersededBy, SupersededID: r.id, DecisionID: syntheticDecision})
		} else {
			l.batch.Versions = append(l.batch.Versions, store.VersionRow{ClaimID: r.id, Version: 1, Workspace: ws, Status: r.status,
				ValidFrom: r.validFrom, ValidTo: r.validTo, RecordedAt: r.recordedAt})
		}
		l.batch.Vectors = append(l.batch.Vectors, store.VectorRow{ClaimID: r.id, Workspace: ws, Model: model, Dim: dim, Embedding: r.vector})
		l.batch.Corroborations = append(l.batch.Corroborations, store.CorroborationRow{ClaimID: r.id, Source: "agent:" + r.owner,
			ViaClaimID: r.id, RecordedAt: r.recordedAt})
		l.aliases[[2]string{ws, strings.ToLower(r.subject)}] = r.subjectKey
		if len(l.batch.Claims) >= loadBatch {
			return l.flush(ctx)
		}
		return nil
	})
}

// syntheticDecision is the decision id of every generated supersedes edge: no decision row is generated.
const syntheticDecision = "00000000-0000-4000-8000-000000000001"

// finish writes what is left, then the supersedes edges and aliases (edges reference claims, which now all
// exist).
func (l *loader) finish(ctx context.Context) error {
	if err := l.flush(ctx); err != nil {
		return err
	}
	ch := store.Changes{Supersedes: l.edges}
	for k, subj := range l.aliases {
		ch.Aliases = append(ch.Aliases, store.AliasRow{Workspace: k[0], Alias: k[1], SubjectKey: subj})
	}
	return l.write(ctx, &ch)
}

// queries ---------------------------------------------------------------------------------------------------

type benchQuery struct {
	text   string
	vector []float32
}

var questionShapes = []string{"What is the %s of %s?", "%s %s", "Tell me about %[2]s and their %[1]s", "Where does %[2]s stand on %[1]s?"}

func makeQueries(g *gen, n, count int) []benchQuery {
	_, subjects := countOnly(n)
	rng := rand.New(rand.NewPCG(99, 7))
	out := make([]benchQuery, count)
	for i := range out {
		s := rng.IntN(max(1, subjects-1))
		j := rng.IntN(claimsPerSubject)
		p := predicates[(s+j*3)%len(predicates)]
		out[i].text = fmt.Sprintf(questionShapes[i%len(questionShapes)], p, subjectName(s))
		out[i].vector = g.vec(4, uint64(i), 0, g.claimVec(s, j, 0, nil), questionNoise)
	}
	return out
}

// warmups is how many unmeasured queries run first.
const warmups = 50

// fixedEmbedder returns the precomputed vector of each benchmark query, so search timings exclude embedding.
type fixedEmbedder struct{ vecs map[string][]float32 }

func (f fixedEmbedder) Model() string { return model }
func (f fixedEmbedder) Dim() int      { return dim }
func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := f.vecs[t]
		if !ok {
			return nil, errors.New("searchbench: unknown query")
		}
		out[i] = v
	}
	return out, nil
}

func searchLatency(ctx context.Context, c config, pool *pgxpool.Pool, qs []benchQuery, res *sizeResult) error {
	vecs := map[string][]float32{}
	for _, q := range qs {
		vecs[q.text] = q.vector
	}
	cfg := query.DefaultConfig()
	if c.searchEf > 0 {
		cfg.EfSearch = c.searchEf
	}
	res.SearchEf = cfg.EfSearch
	cfg.DevMode = true
	cfg.RequestTimeout = 30 * time.Second
	svc, err := query.New(service.Deps{DB: pool, Embedder: fixedEmbedder{vecs}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, cfg)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	svc.Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cl, err := client.New(srv.URL, agent, client.WithTimeout(time.Minute))
	if err != nil {
		return err
	}
	// Warm up (connection pool, plan caches) with queries that are not measured.
	for _, q := range qs[len(qs)-warmups:] {
		if _, err := cl.Search(ctx, workspace, api.SearchRequest{Query: q.text, K: c.k}); err != nil {
			return err
		}
	}
	var ds []time.Duration
	var claims, tokens int
	phases := map[string][]time.Duration{}
	pg0, pgOK := backendCPU(ctx, pool)
	self0, selfOK := procCPU("self")
	for _, q := range qs[:min(c.queries, len(qs)-warmups)] {
		body, _ := json.Marshal(api.SearchRequest{Query: q.text, K: c.k})
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/workspaces/"+workspace+"/search", strings.NewReader(string(body)))
		req.Header.Set(api.HeaderAgent, agent)
		t0 := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		var r api.SearchResponse
		err = json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		ds = append(ds, time.Since(t0))
		if err != nil || resp.StatusCode != http.StatusOK {
			return fmt.Errorf("search: status %d: %v", resp.StatusCode, err)
		}
		for _, part := range strings.Split(resp.Header.Get("Server-Timing"), ",") {
			name, dur, ok := strings.Cut(strings.TrimSpace(part), ";dur=")
			if f, err := strconv.ParseFloat(dur, 64); ok && err == nil {
				phases[name] = append(phases[name], time.Duration(f*float64(time.Millisecond)))
			}
		}
		claims += len(r.Claims)
		tokens += r.ContextTokens
	}
	res.Phases = map[string]*latency{}
	for name, d := range phases {
		res.Phases[name] = summarize(d)
	}
	res.Search = summarize(ds)
	if pg1, ok := backendCPU(ctx, pool); ok && pgOK {
		res.CPUPostgres = ms((pg1 - pg0) / time.Duration(len(ds)))
	}
	if self1, ok := procCPU("self"); ok && selfOK {
		res.CPUProcess = ms((self1 - self0) / time.Duration(len(ds)))
	}
	res.MeanClaims = float64(claims) / float64(len(ds))
	res.MeanTokens = float64(tokens) / float64(len(ds))
	return nil
}

// recall compares the service's dense query (HNSW with iterative scan, visibility and belief filters, the
// service's 40 candidates re-sorted by distance) with the exact scan under the same filters at full precision:
// recall@10 of the top 10, and recall@1 (whether the exact nearest claim — the one a question is about — is
// in the top 10). With -compare-single it then builds a single-precision index beside the half-precision one,
// measures it the same way and drops it, so the cost of half precision is measured on the same corpus.
func recall(ctx context.Context, c config, pool *pgxpool.Pool, dbURL string, qs []benchQuery, res *sizeResult) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	top := func(q string, exact bool, ef int, vec []float32) ([]string, time.Duration, error) {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return nil, 0, err
		}
		defer func() { _ = tx.Rollback(ctx) }()
		settings := []string{"SET LOCAL hnsw.iterative_scan = relaxed_order"}
		if exact {
			settings = append(settings, "SET LOCAL enable_indexscan = off", "SET LOCAL enable_bitmapscan = off")
		} else {
			settings = append(settings, fmt.Sprintf("SET LOCAL hnsw.ef_search = %d", ef))
		}
		for _, s := range settings {
			if _, err := tx.Exec(ctx, s); err != nil {
				return nil, 0, err
			}
		}
		t0 := time.Now()
		// Simple protocol: no cached plan survives the SET (see RUNTIME.md).
		rows, err := tx.Query(ctx, q, pgx.QueryExecModeSimpleProtocol, workspace, agent, pgvector.NewVector(vec))
		if err != nil {
			return nil, 0, err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		return ids, time.Since(t0), err
	}
	// Ground truth: the stored (single-precision) vectors, no index.
	truth := make([][]string, len(qs))
	var exactDs []time.Duration
	for i, qq := range qs {
		ids, d, err := top(recallSQL("cv.embedding"), true, 0, qq.vector)
		if err != nil {
			return err
		}
		truth[i], exactDs = ids, append(exactDs, d)
	}
	res.Exact = summarize(exactDs)
	measure := func(precision, expr string, efs []int, exact bool) error {
		q := recallSQL(expr)
		for _, ef := range efs {
			var hit, total, hit1 int
			var ds []time.Duration
			for i, qq := range qs {
				ids, d, err := top(q, exact, ef, qq.vector)
				if err != nil {
					return err
				}
				ds = append(ds, d)
				set := map[string]bool{}
				for _, id := range ids {
					set[id] = true
				}
				for _, id := range truth[i] {
					total++
					if set[id] {
						hit++
					}
				}
				if len(truth[i]) > 0 && set[truth[i][0]] {
					hit1++
				}
			}
			res.EfSearch = append(res.EfSearch, efResult{Precision: precision, EfSearch: ef,
				RecallAt10: math.Round(1000*float64(hit)/float64(max(total, 1))) / 1000,
				RecallAt1:  math.Round(1000*float64(hit1)/float64(max(len(qs), 1))) / 1000, Dense: summarize(ds)})
		}
		return nil
	}
	if err := measure("half", store.DenseIndexExpr("cv", dim), c.efs, false); err != nil {
		return err
	}
	// An exact scan in half precision: what the rounding alone costs, apart from the graph's approximation.
	if err := measure("half, exact scan", store.DenseIndexExpr("cv", dim), []int{0}, true); err != nil {
		return err
	}
	if !c.compareSingle {
		return nil
	}
	const single = "searchbench_single_hnsw_idx"
	slog.Info("building a single-precision index for comparison", "claims", res.Claims)
	secs, err := createIndexes(ctx, dbURL, []string{fmt.Sprintf(`CREATE INDEX %s ON claim_vectors
		USING hnsw ((embedding::vector(%d)) vector_cosine_ops) WITH (m = 16, ef_construction = 64)`, single, dim)}, c.maxWorkMB, c.workers)
	if err != nil {
		return err
	}
	res.SingleSecs = secs
	defer func() { _, _ = pool.Exec(context.WithoutCancel(ctx), `DROP INDEX IF EXISTS `+single) }()
	if err := pool.QueryRow(ctx, `SELECT pg_relation_size($1::regclass) / 1048576.0`, single).Scan(&res.SingleMB); err != nil {
		return err
	}
	return measure("single", fmt.Sprintf("(cv.embedding::vector(%d))", dim), c.efs, false)
}

func recallSQL(expr string) string {
	return `WITH cand AS MATERIALIZED (
		SELECT c.id::text AS id, ` + expr + ` <=> $3::vector AS dist
		FROM claim_vectors cv
		JOIN claims c ON c.id = cv.claim_id
		JOIN claim_versions v ON v.claim_id = cv.claim_id AND v.retired_at IS NULL
		WHERE cv.workspace_id = $1 AND c.workspace_id = $1 AND (c.scope = 'shared' OR c.owner_agent = $2)
		  AND v.status IN ('active', 'disputed')
		ORDER BY ` + expr + ` <=> $3::vector
		LIMIT 40)
		SELECT id FROM cand ORDER BY dist, id LIMIT 10`
}

// measureEmbedding times the local model on benchmark-like questions (what a deployment adds to a search).
func measureEmbedding(ctx context.Context, c config, log *slog.Logger) (*latency, error) {
	if _, err := os.Stat(c.modelDir); err != nil {
		log.Warn("query embedding not measured: no local model", "dir", c.modelDir)
		return nil, nil
	}
	m, err := uselite.Load(c.modelDir)
	if err != nil {
		log.Warn("query embedding not measured", "err", err)
		return nil, nil
	}
	g := newGen(c.seed, 100)
	qs := makeQueries(g, 100000, 120)
	var ds []time.Duration
	for i, q := range qs {
		t0 := time.Now()
		if _, err := m.Embed(ctx, []string{q.text}); err != nil {
			return nil, err
		}
		if i >= 20 {
			ds = append(ds, time.Since(t0))
		}
	}
	return summarize(ds), nil
}

// databases -------------------------------------------------------------------------------------------------

func databaseExists(ctx context.Context, admin, name string) bool {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return false
	}
	defer conn.Close(ctx)
	var ok bool
	_ = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&ok)
	return ok
}

func recreateDatabase(ctx context.Context, admin, name string) error {
	if err := pgtest.DropDatabase(ctx, admin, name); err != nil {
		return err
	}
	_, err := pgtest.CreateDatabase(ctx, admin, name)
	return err
}

// output ----------------------------------------------------------------------------------------------------

func printMarkdown(w io.Writer, emb *latency, rs []sizeResult, c config) {
	fmt.Fprintf(w, "\n### Search latency (POST /search over HTTP, k=%d, one client, query embedding excluded)\n\n", c.k)
	fmt.Fprintln(w, "| claims | subjects | load (COPY) | index build (HNSW) | HNSW index | database | ef_search | search p50 | p90 | p99 | mean claims | mean context tokens | load average before → after |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %s | %.1f s | %.1f s (%.1f s) | %s | %s | %d | %.2f ms | %.2f ms | %.2f ms | %.1f | %.0f | %s → %s |\n", human(r.Claims), human(r.Subjects),
			r.LoadSeconds, r.IndexSecs, r.DenseSecs, mb(r.DenseMB), mb(r.DatabaseMB), r.SearchEf, r.Search.P50, r.Search.P90, r.Search.P99,
			r.MeanClaims, r.MeanTokens, r.LoadBefore, r.LoadAfter)
	}
	fmt.Fprintln(w, "\nWhere a search spends its time (p50 / p99, ms): round trip 1 = dense + precise lexical + entity lookup; round trip 2 = subject claims (+ any-term lexical); assemble = slots of the candidates.")
	fmt.Fprintln(w, "CPU per search: the Postgres backends' and this process's (service, HTTP, client) CPU time over the timed searches, divided by their number; unlike the latencies, it does not grow when other work shares the cores.")
	fmt.Fprintln(w, "\n| claims | round trip 1 | round trip 2 | assemble | CPU per search: Postgres | CPU per search: service + client |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		p := func(n string) string {
			if l := r.Phases[n]; l != nil {
				return fmt.Sprintf("%.2f / %.2f", l.P50, l.P99)
			}
			return "–"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.2f ms | %.2f ms |\n", human(r.Claims), p("retrieve1"), p("retrieve2"), p("assemble"), r.CPUPostgres, r.CPUProcess)
	}
	if emb != nil {
		fmt.Fprintf(w, "\nQuery embedding (USE-lite, local, one query at a time): p50 %.2f ms, p99 %.2f ms — add it to the figures above.\n", emb.P50, emb.P99)
	}
	fmt.Fprintln(w, "\n### Dense retrieval: HNSW (iterative scan, with visibility and belief filters) vs exact full-precision scan, top-10")
	fmt.Fprintln(w, "\n| claims | index | ef_search | recall@10 | nearest in top 10 | query p50 | query p99 | exact p50 | exact p99 |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		for _, e := range r.EfSearch {
			index, ef := e.Precision+", "+mb(r.DenseMB), strconv.Itoa(e.EfSearch)
			switch e.Precision {
			case "single":
				index = fmt.Sprintf("single, %s, built in %.0f s", mb(r.SingleMB), r.SingleSecs)
			case "half, exact scan":
				index, ef = "none: exact scan in half precision", "–"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %.3f | %.3f | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n", human(r.Claims), index,
				ef, e.RecallAt10, e.RecallAt1, e.Dense.P50, e.Dense.P99, r.Exact.P50, r.Exact.P99)
		}
	}
}

func mb(v float64) string {
	if v >= 1024 {
		return fmt.Sprintf("%.2f GB", v/1024)
	}
	return fmt.Sprintf("%.0f MB", v)
}

// clockTick is the unit of the CPU times in /proc/<pid>/stat (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// procCPU returns the CPU time (user and system) process pid ("self" for this one) has used, from /proc.
func procCPU(pid string) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces: count fields after it.
	_, rest, ok := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * clockTick, true
}

// backendCPU returns the CPU time used so far by the Postgres backends connected to the pool's database,
// which is what searches cost the server when the server is on this machine (false when it is not).
func backendCPU(ctx context.Context, pool *pgxpool.Pool) (time.Duration, bool) {
	rows, err := pool.Query(ctx, `SELECT pid::text FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return 0, false
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(pids) == 0 {
		return 0, false
	}
	var total time.Duration
	for _, pid := range pids {
		d, ok := procCPU(pid)
		if !ok {
			return 0, false
		}
		total += d
	}
	return total, true
}

// loadavg returns the 1-, 5- and 15-minute load averages of the machine.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func human(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return strconv.Itoa(n)
}

func machine() string {
	host, _ := os.Hostname()
	b, _ := os.ReadFile("/proc/cpuinfo")
	cores := strings.Count(string(b), "processor\t:")
	model := ""
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			_, model, _ = strings.Cut(l, ": ")
			break
		}
	}
	return fmt.Sprintf("%s, %d cores (%s)", host, cores, model)
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("empty list")
	}
	return out, nil
}

func envOr(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "."
}
