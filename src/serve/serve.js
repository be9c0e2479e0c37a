// iolens serve's page: polls the JSON API (docs/serve.md) and draws the
// jobs, and the chosen job's series, latency and slowest files. Every text
// from the database goes into the page as text (textContent), never as HTML.
'use strict';

const params = new URLSearchParams(location.search);
const POLL_MS = Math.max(200, Number(params.get('poll')) || 2000);
const VALUES = ['bytes_read', 'bytes_written', 'reads', 'writes', 'other_ops', 'io_time'];
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
  '#7f7f7f', '#bcbd22', '#17becf'];
let by = params.get('by') || 'rank';
let charts = null;
let polls = 0;
let timer = null;

function chosenJob() {
  const m = /^#job=(.+)$/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

async function getJSON(path) {
  const r = await fetch(path, {cache: 'no-store'});
  if (!r.ok) {
    let why = r.statusText;
    try { why = (await r.json()).error; } catch (e) { /* not JSON: the status says it */ }
    throw new Error(path + ': ' + r.status + ' ' + why);
  }
  return r.json();
}

const fmtInt = new Intl.NumberFormat('en-US');
function num(v) { return v === null || v === undefined ? '' : fmtInt.format(v); }
function usecs(v) { return v === null || v === undefined ? '' : Number(v * 1e6).toPrecision(4); }
function secs(v) { return v === null || v === undefined ? '' : Number(v).toPrecision(4); }
function when(t) { return t ? new Date(t * 1000).toISOString().replace('T', ' ').slice(0, 19) : ''; }

// A table row of cells; each cell a text, or [text, class].
function row(cells) {
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement('td');
    const [text, cls] = Array.isArray(c) ? c : [c, null];
    td.textContent = text === null || text === undefined ? '' : String(text);
    if (cls) td.className = cls;
    tr.appendChild(td);
  }
  return tr;
}

function fillTable(id, rows) {
  const body = document.querySelector('#' + id + ' tbody');
  body.replaceChildren(...rows);
}

function renderJobs(data, job) {
  document.getElementById('jobs-empty').hidden = data.jobs.length > 0;
  fillTable('jobs-table', data.jobs.map(j => {
    const tr = row([j.job_key, j.job_id, j.live ? ['live', 'live'] : 'finished', j.exe,
      j.source === 'events' ? j.processes : j.nprocs, num(j.events), num(j.bytes_read),
      num(j.bytes_written), when(j.start_time), when(j.end_time)]);
    tr.dataset.job = j.job_key;
    if (j.job_key === job) tr.className = 'selected';
    tr.addEventListener('click', () => { location.hash = '#job=' + encodeURIComponent(j.job_key); });
    return tr;
  }));
}

function makeChart(id, unit) {
  return new Chart(document.getElementById(id), {
    type: 'line',
    data: {datasets: []},
    options: {
      animation: false, maintainAspectRatio: false, parsing: false, normalized: true,
      elements: {point: {radius: 2}, line: {borderWidth: 1.5}},
      scales: {
        x: {type: 'linear', title: {display: true, text: 'seconds since the first event'}},
        y: {beginAtZero: true, title: {display: true, text: unit}},
      },
      plugins: {legend: {position: 'bottom', labels: {boxWidth: 12}}},
    },
  });
}

function renderSeries(data) {
  if (!charts) charts = {bytes: makeChart('bytes-chart', 'bytes/s'), ops: makeChart('ops-chart', 'ops/s')};
  let first = Infinity, last = -Infinity;
  for (const s of data.series) {
    for (const p of s.points) { first = Math.min(first, p[0]); last = Math.max(last, p[0]); }
  }
  const col = name => 1 + VALUES.indexOf(name);
  // Points are sums over data.step seconds, drawn as rates; a step without
  // a point had no I/O, drawn as 0.
  const step = data.step || 1;
  const points = (s, f) => {
    const at = new Map(s.points.map(p => [p[0], f(p) / step]));
    const out = [];
    for (let t = first; t <= last; t += step) out.push({x: t - first, y: at.get(t) || 0});
    return out;
  };
  const sets = (f) => data.series.map((s, i) => ({
    label: s.label, borderColor: COLORS[i % COLORS.length], backgroundColor: COLORS[i % COLORS.length],
    data: points(s, f),
  }));
  charts.bytes.data.datasets = sets(p => p[col('bytes_read')] + p[col('bytes_written')]);
  charts.ops.data.datasets = sets(p => p[col('reads')] + p[col('writes')] + p[col('other_ops')]);
  charts.bytes.update('none');
  charts.ops.update('none');
  document.getElementById('series-count').textContent = data.series.length < data.total_series
    ? `(the ${data.series.length} busiest of ${data.total_series})` : `(${data.total_series})`;
  const table = document.getElementById('series-table');
  table.dataset.by = data.by;
  fillTable('series-table', data.series.map(s => {
    const t = s.totals;
    const tr = row([s.label, s.points.length, num(t.bytes_read), num(t.bytes_written), num(t.reads),
      num(t.writes), num(t.other_ops), secs(t.io_time)]);
    tr.dataset.key = s.key;
    return tr;
  }));
}

function renderJob(info, series, latency, slowest) {
  const j = info.job;
  document.getElementById('job').hidden = false;
  document.getElementById('job-title').textContent = 'Job ' + j.job_key;
  document.getElementById('job-info').textContent = [
    j.live ? 'live' : 'finished', j.exe, (j.source === 'events' ? j.processes : j.nprocs) + ' processes',
    j.source === 'events' ? num(j.events) + ' events' + (j.dropped ? ', ' + num(j.dropped) + ' dropped' : '') : 'from its log',
    when(j.start_time) + ' to ' + when(j.end_time)].filter(Boolean).join(' · ');
  for (const b of document.querySelectorAll('button[data-by]')) b.classList.toggle('on', b.dataset.by === by);
  renderSeries(series);
  fillTable('latency-table', latency.ops.map(o => row([o.op, num(o.count), usecs(o.min), usecs(o.mean),
    usecs(o.p50), usecs(o.p90), usecs(o.p99), usecs(o.max)])));
  fillTable('slowest-table', slowest.files.map(f => row([f.name === null ? f.record_id : f.name,
    secs(f.io_time), num(f.bytes_read), num(f.bytes_written), num(f.reads), num(f.writes),
    num(f.other_ops)])));
}

async function poll() {
  try {
    const jobs = await getJSON('/api/jobs');
    let job = chosenJob();
    if (!job && jobs.jobs.length) job = jobs.jobs[0].job_key;
    renderJobs(jobs, job);
    if (job) {
      const base = '/api/jobs/' + encodeURIComponent(job);
      const [info, series, latency, slowest] = await Promise.all([getJSON(base),
        getJSON(base + '/series?by=' + encodeURIComponent(by)), getJSON(base + '/latency'),
        getJSON(base + '/slowest')]);
      renderJob(info, series, latency, slowest);
    }
    polls++;
    document.body.dataset.polls = polls;
    document.body.dataset.status = 'ready';
    document.getElementById('status').textContent = 'updated ' + new Date().toLocaleTimeString();
  } catch (e) {
    document.body.dataset.status = 'error';
    document.getElementById('status').textContent = 'update failed: ' + e.message;
    console.error(e.message);
  }
  clearTimeout(timer); // one pending poll, however many were asked for
  timer = setTimeout(poll, POLL_MS);
}

for (const b of document.querySelectorAll('button[data-by]')) {
  b.addEventListener('click', () => { by = b.dataset.by; poll(); });
}
window.addEventListener('hashchange', poll);
poll();
