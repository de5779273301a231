import type { OpenApiDocument } from '../../api/meta/get-openapi.ts';
import { operationsByTag } from './reference-contents.ts';
import './reference-contents.css';

/**
 * Every call of the API by tag, linked to its place in the full reference: light enough to paint
 * as soon as the document arrives, while Scalar (most of the page's weight) loads and renders.
 */
export function ReferenceContents({ spec }: { spec: OpenApiDocument }) {
  return (
    <nav className="reference-contents card" aria-label="API calls">
      {operationsByTag(spec).map(({ tag, operations }) => (
        <div key={tag}>
          <h2>{tag}</h2>
          <ul>
            {operations.map((op) => (
              <li key={op.anchor}>
                <a href={`#${op.anchor}`}>
                  <span className="reference-method">{op.method}</span> <code>{op.path}</code>
                  {op.summary && <span className="reference-summary">{op.summary}</span>}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
