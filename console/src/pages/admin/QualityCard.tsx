import { Gauge } from 'lucide-react';
import type { ApiQualityReport } from '../../../../contract/api';
import { useQualityReports } from '../../api/quality';
import { QueryState } from '../../components/QueryState';
import { Badge, Card, CardHeader, EmptyState, Table, cx, tbodyRow, td, th, theadRow } from '../../components/ui';
import { formatRelative } from '../../lib/format';
import { qualityFigures, shortModels } from '../../lib/quality';

/**
 * The quality of the box's AI (issue 45): the latest `npm run eval` report of each set of
 * models, beside the agent's capacity. Read-only: the evaluation runs on the box, not from here.
 */
export default function QualityCard() {
  const q = useQualityReports();
  const reports = q.data?.reports ?? [];
  return (
    <Card className="mb-6">
      <CardHeader title="AI Quality" description="The latest evaluation of each set of models (npm run eval; docs/quality.md says what each figure means)." />
      <QueryState
        query={q}
        loading="Loading quality reports..."
        failed="Could not load quality reports"
        empty={reports.length === 0 && <EmptyState icon={<Gauge className="h-6 w-6" />} title="No evaluation yet" text="Run npm run eval on the box after changing a model or a prompt; its report appears here." />}
      >
        {() => (
          <Table label="AI Quality" stackBelow="lg">
            <thead>
              <tr className={theadRow}>
                <th className={th}>Figure</th>
                {reports.map((r) => (
                  <th key={r.models} className={th}>
                    <ReportHeading report={r} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {qualityFigures(reports[0]!).map((f, i) => (
                <tr key={f.label} className={tbodyRow}>
                  <td data-label="Figure" className={cx(td, 'font-medium')}>
                    {f.label} <span className="text-xs font-normal text-slate-500 dark:text-slate-400">({f.better} is better)</span>
                  </td>
                  {reports.map((r) => (
                    <td key={r.models} data-label={shortModels(r)} className={cx(td, 'tabular-nums')}>
                      {qualityFigures(r)[i]!.value}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}

function ReportHeading({ report }: { report: ApiQualityReport }) {
  return (
    <span className="flex flex-col gap-1 normal-case tracking-normal">
      <span className="break-words">{report.models}</span>
      <span className="font-normal">{formatRelative(report.createdAt)}</span>
      {report.set.partial && (
        <Badge tone="amber" className="self-start">
          Part of the set
        </Badge>
      )}
    </span>
  );
}
