// iolens report's page script: reads the JSON data (docs/report.md) and
// fills every section; charts are Chart.js's. At the end the body's
// data-status says "ready" and data-render-ms how long it took (the browser
// test reads both); any script error is listed at the top of the page.
'use strict';

const started = performance.now();
const errors = [];
window.addEventListener('error', (e) => showError(e.message));
window.addEventListener('unhandledrejection', (e) => showError(String(e.reason)));

function showError(message) {
  errors.push(message);
  const list = document.getElementById('errors');
  list.hidden = false;
  list.appendChild(el('li', {}, message));
}

// ---- small helpers ----

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c instanceof Node ? c : String(c));
  return e;
}

const $ = (id) => document.getElementById(id);
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

function bytes(v) {
  let i = 0;
  while (Math.abs(v) >= 1024 && i < UNITS.length - 1) { v /= 1024; i++; }
  return i ? v.toFixed(2) + ' ' + UNITS[i] : v + ' B';
}

function secs(v) {
  return v === 0 ? '0' : v < 0.001 ? v.toExponential(2) : v.toFixed(v < 10 ? 4 : 2);
}

const count = (v) => Number(v).toLocaleString('en-US');

// A table cell: numbers right-aligned, their exact value in data-v.
function cell(v, fmt) {
  return fmt ? el('td', { class: 'n', 'data-v': v }, fmt(v)) : el('td', {}, v);
}

function fillTable(table, head, rows) {
  table.replaceChildren();
  if (head) table.appendChild(el('tr', {}, ...head.map((h) => el('th', {}, h))));
  for (const r of rows) table.appendChild(el('tr', {}, ...r));
}

function kv(table, pairs) {
  fillTable(table, null, pairs.map(([k, v]) => [el('th', {}, k), el('td', {}, v)]));
}

const COLORS = { read: '#3b78c4', write: '#e3742b', meta: '#7a8c99' };

function chart(parent, cls, config) {
  const box = el('div', { class: 'chart ' + (cls || '') });
  const canvas = el('canvas');
  box.appendChild(canvas);
  parent.appendChild(box);
  return new Chart(canvas, config);
}

function barConfig(labels, datasets, opts) {
  return {
    type: 'bar',
    data: { labels, datasets },
    options: Object.assign({ maintainAspectRatio: false, animation: false,
      plugins: { legend: { position: 'bottom' } } }, opts || {}),
  };
}

// ---- sections ----

function jobSection(d) {
  const meta = Object.fromEntries(d.metadata.split('\n').filter((l) => l.includes('='))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const when = (t) => new Date(t * 1000).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
  $('subtitle').textContent = d.exe.split(' ')[0].split('/').pop() + ' — ' + d.log;
  kv($('job-table'), [
    ['Command', d.exe], ['Job id', d.jobid], ['User id', d.uid], ['Processes', count(d.nprocs)],
    ['Start', when(d.start)], ['End', when(d.end)], ['Run time', secs(d.run_time) + ' s'],
    ['Time in I/O', secs(d.io_time) + ' s over all ranks'],
    ['I/O time share', (100 * d.io_share).toFixed(2) + ' % of ranks × run time'],
  ]);
  kv($('log-table'), [['Log', d.log], ['Log format', d.log_version],
    ['Runtime', meta.lib_ver ? 'version ' + meta.lib_ver : '(not recorded)'],
    ...Object.entries(meta).filter(([k]) => k !== 'lib_ver')]);
  fillTable($('module-table'), ['Module', 'Version', 'Data', 'Records', ''], d.modules.map((m) => [
    cell(m.name), cell(m.version, String), cell(m.bytes, bytes), cell(m.records, count),
    m.partial ? el('td', { class: 'warn-text' }, 'incomplete: the runtime ran out of memory or records for it')
      : el('td'),
  ]));
}

function findingsSection(d) {
  const box = $('findings');
  if (!d.findings.length) box.appendChild(el('p', {}, 'No findings: nothing in this log calls for a change.'));
  for (const f of d.findings) {
    const ev = Object.entries(f.evidence).filter(([k]) => k !== 'files' && k !== 'more_files' && k !== 'ranks')
      .map(([k, v]) => k + ' ' + v).join(', ');
    const files = f.evidence.files.map((x) => el('li', {}, x.name));
    if (f.evidence.more_files) files.push(el('li', {}, 'and ' + f.evidence.more_files + ' more'));
    const recs = Object.entries(f.recommendation).map(([i, t]) => el('li', {}, el('b', {}, i + ': '), t));
    box.appendChild(el('div', { class: 'finding ' + f.severity },
      el('div', {}, el('span', { class: 'sev' }, f.severity), el('span', { class: 'id' }, f.id), f.summary),
      el('div', { class: 'note' }, 'evidence: ' + ev +
        (f.evidence.ranks.length ? '; ranks ' + f.evidence.ranks.join(' ') : '')),
      files.length ? el('ul', {}, ...files) : '', el('ul', {}, ...recs)));
  }
}

function timeSection(d) {
  const mods = d.modules.filter((m) => 'read_time' in m);
  const n = Math.max(1, d.nprocs);
  const per = (m, k) => m[k] / n;
  chart($('time'), 'small', barConfig(mods.map((m) => m.name), ['read', 'write', 'meta'].map((k) => ({
    label: k === 'meta' ? 'metadata' : k + 's', backgroundColor: COLORS[k],
    data: mods.map((m) => per(m, k + '_time')) })),
  { scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'seconds per process' } } } }));
  fillTable($('time-table'), ['Module', 'Read (s)', 'Write (s)', 'Metadata (s)', 'Per process (s)'],
    mods.map((m) => [cell(m.name), cell(m.read_time, secs), cell(m.write_time, secs),
      cell(m.meta_time, secs), cell((m.read_time + m.write_time + m.meta_time) / n, secs)]));
  $('time').appendChild($('time-table'));
  fillTable($('perf-table'), ['Module', 'Transferred', 'Time of the slowest rank (s)', 'Estimate'],
    d.modules.filter((m) => m.perf).map((m) => [cell(m.name), cell(m.perf.bytes, bytes),
      cell(m.perf.time, secs), el('td', { class: 'n', 'data-v': m.perf.mib_per_s },
        m.perf.mib_per_s.toFixed(2) + ' MiB/s')]));
  $('time').appendChild($('perf'));
}

function opsSection(d) {
  for (const m of d.modules.filter((x) => x.ops && Object.keys(x.ops).length)) {
    const card = el('div', { class: 'card' }, el('h3', {}, m.name));
    $('ops-charts').appendChild(card);
    chart(card, '', barConfig(Object.keys(m.ops), [{ label: 'operations', backgroundColor: COLORS.read,
      data: Object.values(m.ops) }], { plugins: { legend: { display: false } } }));
  }
}

const SIZE_BINS = ['0-100', '101-1K', '1K-10K', '10K-100K', '100K-1M', '1M-4M', '4M-10M',
  '10M-100M', '100M-1G', '1G+'];

function accessSection(d) {
  for (const m of d.modules.filter((x) => x.read_sizes)) {
    const card = el('div', { class: 'card' }, el('h3', {}, m.name));
    $('access-charts').appendChild(card);
    chart(card, '', barConfig(SIZE_BINS, [
      { label: 'reads', backgroundColor: COLORS.read, data: m.read_sizes },
      { label: 'writes', backgroundColor: COLORS.write, data: m.write_sizes }]));
    const t = el('table');
    fillTable(t, ['Common size', 'Count'], m.common.map(([s, c]) => [cell(s, count), cell(c, count)]));
    card.append(el('h3', {}, 'Most common sizes'), t);
  }
  for (const m of d.modules.filter((x) => x.pattern)) {
    const p = m.pattern;
    const card = el('div', { class: 'card' }, el('h3', {}, m.name + ' access pattern'));
    $('pattern').appendChild(card);
    chart(card, '', barConfig(['total', 'sequential', 'consecutive'], [
      { label: 'reads', backgroundColor: COLORS.read, data: [p.READS, p.SEQ_READS, p.CONSEC_READS] },
      { label: 'writes', backgroundColor: COLORS.write, data: [p.WRITES, p.SEQ_WRITES, p.CONSEC_WRITES] }]));
    card.appendChild(el('p', { class: 'note' }, 'Sequential: at a higher offset than the previous ' +
      'operation; consecutive: right after it (consecutive operations are also sequential).'));
  }
}

function kindsSection(d) {
  const names = ['all files', 'read-only', 'write-only', 'read/write', 'shared or several ranks', 'one rank'];
  for (const [iface, t] of Object.entries(d.ifaces)) {
    if (!t.records) continue;
    const table = el('table');
    fillTable(table, ['Files', 'Count', 'Bytes', 'Largest'], t.kinds.map(([c, b, mx], i) =>
      [cell(names[i]), cell(c, count), cell(b, bytes), cell(mx, bytes)]));
    const rest = t.rest_records ? count(t.rest_records) + ' records (' + bytes(t.rest_bytes) +
      ') of files left out of the table' : 'every file is in the table';
    $('kinds-tables').appendChild(el('div', { class: 'card' }, el('h3', {}, iface), table,
      el('p', { class: 'note' }, rest)));
  }
}

function mountsSection(d) {
  fillTable($('mount-table'), ['Mount point', 'File system', 'Files', 'Read', 'Written'],
    d.mounts.sort((a, b) => (b.read + b.written) - (a.read + a.written)).map((m) =>
      [cell(m.mount), cell(m.fs), cell(m.files, count), cell(m.read, bytes), cell(m.written, bytes)]));
}

// ---- the file table: sort, filter, pages ----

const FILE_COLUMNS = [
  ['File', 0, null], ['Interface', 1, null], ['Bytes read', 2, bytes], ['Bytes written', 3, bytes],
  ['Reads', 4, count], ['Writes', 5, count], ['Metadata ops', 6, count], ['Time (s)', 'time', secs],
  ['Ranks', 10, count], ['Slowest rank', 11, String], ['Its time (s)', 12, secs]];
const PAGE_ROWS = 50;

function filesSection(d) {
  const rows = d.files.map((r) => Object.assign(r, { time: r[7] + r[8] + r[9] }));
  const state = { key: 'time', dir: -1, page: 0, shown: rows };
  const head = $('file-table').tHead;
  head.appendChild(el('tr', {}, ...FILE_COLUMNS.map(([name, key, fmt]) =>
    el('th', { class: fmt ? 'n' : '', 'data-key': key }, name))));
  for (const i of new Set(rows.map((r) => r[1]))) $('file-iface').appendChild(el('option', {}, i));
  $('files-note').textContent = 'The ' + count(rows.length) + ' rows are the heaviest files (by bytes ' +
    'and time, one row per interface)' + (d.rest_files || d.files_left_out
    ? '; ' + count(d.rest_files + d.files_left_out) + ' more files or records are only in the totals above.' : '.');

  function render() {
    const pages = Math.max(1, Math.ceil(state.shown.length / PAGE_ROWS));
    state.page = Math.min(state.page, pages - 1);
    const body = $('file-table').tBodies[0];
    body.replaceChildren(...state.shown.slice(state.page * PAGE_ROWS, (state.page + 1) * PAGE_ROWS)
      .map((r) => el('tr', {}, ...FILE_COLUMNS.map(([, key, fmt]) => {
        const v = r[key];
        return key === 11 && v < 0 ? el('td', { class: 'n' }, '-') : cell(v, fmt);
      }))));
    for (const th of head.rows[0].cells) {
      th.className = (th.cellIndex >= 2 ? 'n ' : '') +
        (String(state.key) === th.dataset.key ? (state.dir > 0 ? 'asc' : 'desc') : '');
    }
    $('file-count').textContent = count(state.shown.length) + ' rows';
    $('file-page').textContent = ' page ' + (state.page + 1) + ' of ' + pages + ' ';
  }

  function update() {
    const text = $('file-filter').value.toLowerCase(), iface = $('file-iface').value;
    state.shown = rows.filter((r) => (!iface || r[1] === iface) && r[0].toLowerCase().includes(text));
    const k = state.key, dir = state.dir;
    state.shown.sort((a, b) => (a[k] < b[k] ? -dir : a[k] > b[k] ? dir : 0));
    render();
  }

  head.addEventListener('click', (e) => {
    const key = e.target.dataset && e.target.dataset.key;
    if (key === undefined) return;
    const k = /^\d+$/.test(key) ? Number(key) : key;
    state.dir = state.key === k ? -state.dir : (k <= 1 ? 1 : -1);
    state.key = k;
    update();
  });
  $('file-filter').addEventListener('input', () => { state.page = 0; update(); });
  $('file-iface').addEventListener('change', () => { state.page = 0; update(); });
  $('file-prev').addEventListener('click', () => { state.page = Math.max(0, state.page - 1); render(); });
  $('file-next').addEventListener('click', () => { state.page++; render(); });
  update();
}

// ---- heatmap: one scatter of square points per grid (an interface's
// HEATMAP records, or a DXT module's traces), with bytes over time and per
// rank beside it; each grid's box carries its totals (data-total, data-rows) ----

// The lines with the most I/O time (the CALLSITES module), when the log has them.
function linesSection(d) {
  const cs = d.callsites;
  if (!cs) return;
  $('lines').hidden = false;
  $('lines-link').hidden = false;
  $('lines-note').textContent = 'The ' + cs.sites.length + ' of ' + count(cs.nsites) +
    ' call sites with the most I/O time: the line that made the call, then its callers' +
    ' (iolens callsites lists them all).' + (cs.partial ? ' Incomplete: the call-site table was full.' : '');
  const where = (s) => s.file ? s.function + ' ' + s.file + ':' + s.line : s.function;
  fillTable($('callsites-table'), ['Line', 'Module', 'Op', 'Calls', 'Bytes', 'Time (s)', 'Called from'],
    cs.sites.map((s) => [cell(where(s)), cell(s.module), cell(s.op), cell(s.calls, count),
      cell(s.bytes, bytes), cell(s.time, secs), el('td', { class: 'note' }, s.callers.join(' ← '))]));
}

function heatmapSection(d) {
  const section = $('heatmaps');
  if (!d.heatmaps.some((h) => h.source === 'HEATMAP')) {
    section.appendChild(el('p', {}, 'This log has no HEATMAP records (the HEATMAP module is on by ' +
      'default in iolens and Darshan 3.4 or newer).'));
  }
  for (const h of d.heatmaps) {
    const max = Math.max(1, ...h.cells.map((c) => c[2] + c[3]));
    const overTime = new Array(h.nbins).fill(0), perRow = new Array(h.nrows).fill(0);
    for (const [row, bin, r, w] of h.cells) { overTime[bin] += r + w; perRow[row] += r + w; }
    const rowLabel = (i) => h.ranks_per_row > 1
      ? 'ranks ' + i * h.ranks_per_row + '-' + ((i + 1) * h.ranks_per_row - 1) : 'rank ' + i;
    const box = el('div', { class: 'heatmap', 'data-label': h.label, 'data-source': h.source,
      'data-total': String(perRow.reduce((a, v) => a + v, 0)), 'data-rows': perRow.join(','),
      'data-ranks-per-row': String(h.ranks_per_row) });
    section.appendChild(box);
    box.appendChild(el('h3', {}, h.label + ': bytes moved per ' + secs(h.bin_seconds) + ' s and ' +
      (h.ranks_per_row > 1 ? h.ranks_per_row + ' ranks' : 'rank')));
    const cellSize = (c) => {
      const a = c.chart.chartArea;
      return a ? Math.max(1.5, Math.min(a.width / h.nbins, a.height / h.nrows) / 2) : 2;
    };
    chart(box, 'wide', {
      type: 'scatter',
      data: { datasets: [{ label: 'bytes', data: h.cells.map(([row, bin, r, w]) =>
        ({ x: (bin + 0.5) * h.bin_seconds, y: row, v: r + w, r, w })),
        pointStyle: 'rect', radius: cellSize, hoverRadius: cellSize, borderWidth: 0,
        backgroundColor: (c) => 'rgba(200, 40, 30, ' +
          (0.15 + 0.85 * Math.log1p(c.raw ? c.raw.v : 0) / Math.log1p(max)) + ')' }] },
      options: { maintainAspectRatio: false, animation: false, plugins: { legend: { display: false },
        tooltip: { callbacks: { label: (c) => rowLabel(c.raw.y) + ': read ' + bytes(c.raw.r) +
          ', written ' + bytes(c.raw.w) } } },
      scales: { x: { min: 0, max: h.nbins * h.bin_seconds, title: { display: true, text: 'seconds' } },
        y: { min: -0.5, max: h.nrows - 0.5, reverse: true, ticks: { precision: 0 },
          title: { display: true, text: h.ranks_per_row > 1 ? 'rank group' : 'rank' } } } },
    });
    chart(box, 'strip', barConfig(overTime.map((_, i) => secs(i * h.bin_seconds)),
      [{ label: 'bytes over time (all ranks)', backgroundColor: COLORS.write, data: overTime }],
      { scales: { y: { ticks: { callback: (v) => bytes(v) } } } }));
    chart(box, 'strip', barConfig(perRow.map((_, i) => rowLabel(i)),
      [{ label: 'bytes per rank (whole run)', backgroundColor: COLORS.read, data: perRow }],
      { scales: { y: { ticks: { callback: (v) => bytes(v) } } } }));
  }
}

// ---- DXT timeline: one row per lane (module, rank, thread), a floating
// bar per kept segment; zoom by dragging over the chart, by the from/to
// fields, or by the page's address (#zoom=FROM,TO in seconds) ----

const DXT_MODULE = { DXT_POSIX: 'POSIX', DXT_MPIIO: 'MPI-IO', DXT_STDIO: 'STDIO' };

function laneLabels(x) {
  const threads = {};
  for (const [mod, rank, thread, seen] of x.lanes) {
    const k = mod + ' ' + rank;
    (threads[k] = threads[k] || []).push([seen, thread]);
  }
  for (const v of Object.values(threads)) v.sort((a, b) => a[0] - b[0]);
  const labels = x.lanes.map(([mod, rank, thread, seen]) => {
    const all = threads[mod + ' ' + rank];
    const label = (DXT_MODULE[mod] || mod) + ' rank ' + rank;
    return thread === 'N/A' && all.length === 1 ? label
      : label + ' thread ' + all.findIndex((t) => t[0] === seen);
  });
  if (x.others.lanes) labels.push('other ' + x.others.lanes + ' lanes');
  return labels;
}

function laneTable(x) {
  const rows = x.lanes.map((l) => [cell(l[0]), cell(l[1], String), cell(l[2]), cell(l[4], count),
    cell(l[5], count), cell(l[6], count), cell(l[7], bytes), cell(l[8], bytes), cell(l[9], secs),
    cell(l[10], String), cell(l[11], count)]);
  if (x.others.lanes) {
    const o = x.others;
    rows.push([cell('others'), cell(o.lanes + ' lanes'), cell(''), cell(o.segments, count), cell(''),
      cell(''), cell(o.bytes, bytes), cell(''), cell(o.busy, secs), cell(''), cell(o.shown, count)]);
  }
  fillTable($('lane-table'), ['Module', 'Rank', 'Thread', 'Segments', 'Reads', 'Writes',
    'Bytes read', 'Bytes written', 'Busy (s)', 'Stride', 'Shown'], rows);
}

function zoomFromAddress() {
  const m = /(?:^|[#&])zoom=([-+0-9.e]+),([-+0-9.e]+)/.exec(location.hash);
  return m && Number(m[1]) < Number(m[2]) ? [Number(m[1]), Number(m[2])] : null;
}

function timelineSection(d) {
  const box = $('timeline-body');
  const x = d.dxt;
  if (!x) {
    box.appendChild(el('p', {}, 'This log has no DXT traces (enable them with IOLENS_DXT, ' +
      'docs/runtime.md).'));
    for (const id of ['dxt-controls', 'dxt-help', 'dxt-lanes']) $(id).hidden = true;
    return;
  }
  const labels = laneLabels(x);
  const status = $('timeline-status');
  status.dataset.segments = x.segments;
  status.dataset.shown = x.shown;
  status.dataset.lanes = x.lanes_total;
  status.dataset.lanesDrawn = x.lanes.length;
  status.dataset.laneLimit = x.lane_limit;
  status.dataset.maxSegments = x.max_segments;
  status.dataset.maxSlowest = x.max_slowest;
  status.textContent = count(x.shown) + ' of ' + count(x.segments) + ' segments shown, ' +
    count(x.lanes_total) + ' lanes' + (x.others.lanes ? ' (the ' + x.lanes.length +
    ' busiest drawn one by one, the other ' + count(x.others.lanes) + ' on one row)' : '') +
    (x.shown < x.segments ? '; each lane keeps every n-th of its segments (its stride, below) ' +
      'and the ' + count(x.max_slowest) + ' slowest of the rest are kept too' : '') +
    (x.partial ? '. The runtime ran out of trace memory: the log holds only the first segments.' : '.');
  laneTable(x);
  for (const m of new Set(x.lanes.map((l) => l[0]))) $('dxt-module').appendChild(el('option', {}, m));
  const end = Math.max(d.run_time, ...x.seg.map((g) => g[6] || 0));
  const points = (w, mod, text) => x.seg.filter((g) => g[2] === w && g[5] !== null && g[6] !== null &&
    (!mod || (g[0] < x.lanes.length ? x.lanes[g[0]][0] === mod : false)) &&
    (!text || x.files[g[1]].toLowerCase().includes(text)))
    .map((g) => ({ y: labels[g[0]], x: [g[5], g[6]], g }));
  status.dataset.end = end;
  const wrap = el('div', { class: 'chart timeline' });
  wrap.style.height = (labels.length * 18 + 90) + 'px';
  box.appendChild(wrap);
  const canvas = el('canvas');
  wrap.appendChild(canvas);
  const dataset = (w) => ({ label: w ? 'writes' : 'reads', backgroundColor: COLORS[w ? 'write' : 'read'],
    data: points(w), grouped: false, minBarLength: 2, barPercentage: 0.8, categoryPercentage: 1 });
  const tl = new Chart(canvas, {
    type: 'bar',
    data: { labels, datasets: [dataset(0), dataset(1)] },
    options: {
      indexAxis: 'y', maintainAspectRatio: false, animation: false, normalized: true,
      plugins: { legend: { position: 'bottom' }, tooltip: { callbacks: { label: (c) => {
        const g = c.raw.g;
        return [x.files[g[1]], (g[2] ? 'write' : 'read') + ' of ' + bytes(g[4]) + ' at offset ' +
          (g[3] < 0 ? '(not recorded)' : count(g[3])), secs(g[5]) + ' s to ' + secs(g[6]) + ' s: ' +
          secs(g[6] - g[5]) + ' s'];
      } } } },
      scales: { x: { type: 'linear', min: 0, max: end, title: { display: true, text: 'seconds since the job started' } },
        y: { ticks: { autoSkip: false } } },
    },
  });

  function zoom(lo, hi) {
    tl.options.scales.x.min = Math.max(0, lo);
    tl.options.scales.x.max = Math.min(end, hi);
    tl.update('none');
    $('dxt-from').value = secs(tl.scales.x.min);
    $('dxt-to').value = secs(tl.scales.x.max);
    box.dataset.zoom = tl.scales.x.min + ',' + tl.scales.x.max;
  }
  function filter() {
    const mod = $('dxt-module').value, text = $('dxt-file').value.toLowerCase();
    tl.data.datasets[0].data = points(0, mod, text);
    tl.data.datasets[1].data = points(1, mod, text);
    tl.update('none');
    const n = tl.data.datasets[0].data.length + tl.data.datasets[1].data.length;
    status.dataset.visible = n;
    $('dxt-visible').textContent = n === x.shown ? '' : count(n) + ' match the filter';
  }
  let dragFrom = null;
  canvas.addEventListener('mousedown', (e) => { dragFrom = tl.scales.x.getValueForPixel(e.offsetX); });
  canvas.addEventListener('mouseup', (e) => {
    const to = tl.scales.x.getValueForPixel(e.offsetX);
    if (dragFrom !== null && Math.abs(to - dragFrom) > (tl.scales.x.max - tl.scales.x.min) / 200) {
      zoom(Math.min(dragFrom, to), Math.max(dragFrom, to));
    }
    dragFrom = null;
  });
  $('dxt-apply').addEventListener('click', () => {
    const lo = Number($('dxt-from').value), hi = Number($('dxt-to').value);
    if (lo < hi) zoom(lo, hi);
  });
  $('dxt-reset').addEventListener('click', () => zoom(0, end));
  $('dxt-module').addEventListener('change', filter);
  $('dxt-file').addEventListener('input', filter);
  window.addEventListener('hashchange', () => { const z = zoomFromAddress(); if (z) zoom(...z); });
  status.dataset.visible = x.shown;
  const z = zoomFromAddress();
  zoom(...(z || [0, end]));
}

// ---- run every section; one failing does not stop the others ----

function main() {
  Chart.defaults.animation = false;
  const d = JSON.parse($('iolens-data').textContent);
  const sections = [jobSection, findingsSection, timeSection, opsSection, accessSection,
    kindsSection, mountsSection, filesSection, linesSection, heatmapSection, timelineSection];
  for (const s of sections) {
    try {
      s(d);
    } catch (e) {
      console.error(e); // the browser test fails on any console message
      showError(s.name + ': ' + e.message);
    }
  }
  document.body.dataset.renderMs = (performance.now() - started).toFixed(0);
  document.body.dataset.status = errors.length ? 'errors' : 'ready';
}

main();
