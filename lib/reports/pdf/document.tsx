import { Document, Image, Page, StyleSheet, Text, View } from '@react-pdf/renderer';
import type { ReportRow } from '../publication';
import { SETTLEMENT_LABEL, type Settlement } from '../publication';
import type { ClientReport } from '../client-report';
import { PDF_FONT, pdfText } from './fonts';

// The client report as a PDF page layout (@react-pdf/renderer: pure JavaScript, no browser): the workspace's name and
// logo, the performance totals and the proof totals, every delivery with how it was settled and how it did, then the
// incidents. Not UI: a document description rendered to bytes by ./render.ts, in lib/ so the monthly email attaches it.

const integer = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });
const count = (v: number | null | undefined) => (v === null || v === undefined ? '-' : integer.format(v));

const styles = StyleSheet.create({
  page: { padding: 36, fontSize: 9, fontFamily: PDF_FONT, color: '#0f172a' },
  header: { flexDirection: 'row', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 },
  logo: { maxWidth: 160, maxHeight: 48, objectFit: 'contain' },
  title: { fontSize: 18, marginBottom: 2 },
  muted: { color: '#475569' },
  h2: { fontSize: 12, marginTop: 14, marginBottom: 6 },
  stats: { flexDirection: 'row', flexWrap: 'wrap', gap: 6 },
  stat: { width: 118, padding: 6, borderWidth: 1, borderColor: '#cbd5e1', borderRadius: 3 },
  statValue: { fontSize: 13 },
  row: { flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: '#e2e8f0', paddingVertical: 3 },
  head: {
    flexDirection: 'row',
    borderBottomWidth: 1,
    borderBottomColor: '#94a3b8',
    paddingBottom: 3,
    color: '#334155',
  },
  cWhen: { width: '17%', paddingRight: 4 },
  cAccount: { width: '17%', paddingRight: 4 },
  cPost: { width: '30%', paddingRight: 4 },
  cHow: { width: '18%', paddingRight: 4 },
  cNum: { width: '9%', textAlign: 'right' },
  footer: { position: 'absolute', bottom: 20, left: 36, right: 36, fontSize: 7, color: '#64748b' },
});

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <View style={styles.stat}>
      <Text style={styles.muted}>{label}</Text>
      <Text style={styles.statValue}>{value}</Text>
      {note && <Text style={styles.muted}>{note}</Text>}
    </View>
  );
}

const change = (current: number | null, previous: number | null) =>
  current === null || previous === null || previous === 0
    ? undefined
    : `${current >= previous ? 'up' : 'down'} ${percent.format(Math.abs((current - previous) / previous))} vs previous period`;

export function ClientReportDocument({ report }: { report: ClientReport }) {
  const { publication, analytics } = report;
  const perf = publication.performance;
  const when = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: publication.workspace.timeZone,
  });
  const at = (iso: string | null) => (iso ? when.format(new Date(iso)) : '-');
  return (
    <Document
      title={`${publication.workspace.name}: client report ${report.fromDay} to ${report.toDay}`}
      author="Semel"
    >
      <Page size="A4" orientation="landscape" style={styles.page}>
        <View style={styles.header} fixed>
          <View>
            <Text style={styles.title}>{pdfText(publication.workspace.name)}</Text>
            <Text style={styles.muted}>
              Client report: posts scheduled from {report.fromDay} to {report.toDay} ({publication.workspace.timeZone})
            </Text>
          </View>
          {report.logo && (
            // eslint-disable-next-line jsx-a11y/alt-text -- a PDF image, not an <img>: react-pdf has no alt text
            <Image
              style={styles.logo}
              src={{ data: report.logo.bytes, format: report.logo.type === 'image/png' ? 'png' : 'jpg' }}
            />
          )}
        </View>

        <Text style={styles.h2}>Performance</Text>
        <View style={styles.stats}>
          <Stat label="Posts read" value={count(perf.read)} />
          <Stat
            label="Total engagement"
            value={count(perf.engagement)}
            note={change(analytics.current.engagement, analytics.previous.engagement)}
          />
          <Stat label="Views" value={count(perf.views)} />
          <Stat label="Likes" value={count(perf.likes)} />
          <Stat label="Reposts" value={count(perf.reposts)} />
          <Stat label="Replies" value={count(perf.replies)} />
          <Stat
            label="Followers"
            value={count(analytics.followers.end)}
            note={
              analytics.followers.change === null
                ? undefined
                : `${analytics.followers.change >= 0 ? '+' : ''}${count(analytics.followers.change)} in the period`
            }
          />
        </View>

        <Text style={styles.h2}>Proof of publication</Text>
        <View style={styles.stats}>
          <Stat label="Deliveries" value={count(publication.totals.deliveries)} />
          <Stat label="Sent" value={count(publication.totals.sent)} />
          {(Object.keys(SETTLEMENT_LABEL) as Settlement[]).map((s) => (
            <Stat key={s} label={SETTLEMENT_LABEL[s]} value={count(publication.totals[s])} />
          ))}
        </View>

        <Text style={styles.h2}>Every delivery</Text>
        <View style={styles.head} fixed>
          <Text style={styles.cWhen}>Scheduled / published</Text>
          <Text style={styles.cAccount}>Account</Text>
          <Text style={styles.cPost}>Post</Text>
          <Text style={styles.cHow}>How it was settled</Text>
          <Text style={styles.cNum}>Engagement</Text>
          <Text style={styles.cNum}>Views</Text>
        </View>
        {publication.rows.map((r, i) => (
          <DeliveryRow key={i} row={r} at={at} />
        ))}
        {publication.rows.length === 0 && <Text style={styles.muted}>Nothing was scheduled in this period.</Text>}

        <Text style={styles.h2}>Incidents</Text>
        {publication.incidents.length === 0 ? (
          <Text style={styles.muted}>None: every call had a clear answer and nothing needed a decision.</Text>
        ) : (
          publication.incidents.map((incident, i) => (
            <Text key={i} style={{ marginBottom: 3 }}>
              {at(incident.at)} · {pdfText(incident.account)}: {pdfText(incident.detail)}
            </Text>
          ))
        )}
        <Text
          style={styles.footer}
          fixed
          render={({ pageNumber, totalPages }) =>
            `Generated by Semel on ${at(report.generatedAt)}. “-”: not published yet, not read yet, or the network does not give that metric. Page ${pageNumber} of ${totalPages}.`
          }
        />
      </Page>
    </Document>
  );
}

function DeliveryRow({ row, at }: { row: ReportRow; at: (iso: string | null) => string }) {
  return (
    <View style={styles.row} wrap={false}>
      <Text style={styles.cWhen}>
        {at(row.scheduledAt)}
        {'\n'}
        {row.publishedAt ? at(row.publishedAt) : '-'}
      </Text>
      <Text style={styles.cAccount}>
        {pdfText(row.account)}
        {'\n'}
        {row.network}
      </Text>
      <Text style={styles.cPost}>
        {pdfText(row.text.length > 140 ? `${row.text.slice(0, 140)}…` : row.text)}
        {row.part ? `\n${row.part}` : ''}
      </Text>
      <Text style={styles.cHow}>{SETTLEMENT_LABEL[row.settlement]}</Text>
      <Text style={styles.cNum}>{count(row.performance?.engagement)}</Text>
      <Text style={styles.cNum}>{count(row.performance?.views)}</Text>
    </View>
  );
}
