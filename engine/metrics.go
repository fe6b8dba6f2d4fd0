package engine

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the poller's Prometheus collectors. Create them with
// NewMetrics and pass them in Options; an Engine without them records
// nothing.
type Metrics struct {
	polls          *prometheus.CounterVec
	fetchSeconds   prometheus.Histogram
	fetchBytes     prometheus.Counter
	imported       prometheus.Counter
	queued         prometheus.Counter
	dueBacklog     prometheus.Gauge
	leaseConflicts prometheus.Counter
}

// NewMetrics creates the poller's collectors and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		polls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rssbot_polls_total",
			Help: "Feed polls by outcome (ok, not_modified, rate_limited, gone, not_found, network_error, invalid, …).",
		}, []string{"outcome"}),
		fetchSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "rssbot_fetch_duration_seconds",
			Help:    "Wall time of one feed request, redirects included.",
			Buckets: []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}),
		fetchBytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "rssbot_fetch_bytes_total",
			Help: "Body bytes received from feed servers, before decompression.",
		}),
		imported: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "rssbot_entries_imported_total",
			Help: "New entries stored.",
		}),
		queued: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "rssbot_entries_queued_total",
			Help: "Outbox rows created for new entries.",
		}),
		dueBacklog: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "rssbot_due_feeds",
			Help: "Enabled, subscribed feeds due for a poll at the start of the last tick.",
		}),
		leaseConflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "rssbot_lease_conflicts_total",
			Help: "Host leases lost before the work was done, or found held by another worker.",
		}),
	}
	reg.MustRegister(m.polls, m.fetchSeconds, m.fetchBytes, m.imported, m.queued, m.dueBacklog, m.leaseConflicts)
	return m
}

// observePoll records one finished poll.
func (m *Metrics) observePoll(r PollResult) {
	if m == nil {
		return
	}
	m.polls.WithLabelValues(r.Outcome).Inc()
	m.imported.Add(float64(r.New))
	m.queued.Add(float64(r.Queued))
}

func (m *Metrics) leaseConflict() {
	if m != nil {
		m.leaseConflicts.Inc()
	}
}
