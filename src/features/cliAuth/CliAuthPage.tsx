import { Link, useParams } from 'react-router';
import type { CliAuthTicket } from '../../../contract/cliAuth.ts';
import { isStatus } from '../../api/errors.ts';
import { useDecideCliAuthTicket } from '../../api/cliAuth/decide-ticket.ts';
import { useCliAuthTicket } from '../../api/cliAuth/get-ticket.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { When } from '../../components/When.tsx';
import './cli-auth.css';

/**
 * /cli-auth/:ticketId, the page `simplex login` opens: who asks for a key, from where and when, and
 * Approve (a new API key, listed in Settings) or Deny. The request itself proves nothing about who
 * made it, so the page says to approve only a login one has just started.
 */
export function CliAuthPage() {
  const { ticketId = '' } = useParams();
  const ticket = useCliAuthTicket(ticketId);
  return (
    <div className="cli-auth-page">
      <h1>Log in a command-line client</h1>
      {ticket.isPending && (
        <p className="status" role="status">
          Loading the login request…
        </p>
      )}
      {ticket.isError &&
        (isStatus(ticket.error, 404) || isStatus(ticket.error, 422) ? (
          <div className="notice error" role="alert">
            <p>
              <strong>No such login request.</strong> It may have been made on another server, or forgotten after it
              expired. Run <code>simplex login</code> again.
            </p>
          </div>
        ) : (
          <ErrorNotice error={ticket.error} title="Could not load the login request." />
        ))}
      {ticket.data && <TicketCard ticket={ticket.data} />}
    </div>
  );
}

function TicketCard({ ticket }: { ticket: CliAuthTicket }) {
  const decide = useDecideCliAuthTicket(ticket.ticket_id);
  return (
    <section className="card" aria-labelledby="cli-auth-request-title">
      <h2 id="cli-auth-request-title">A client asks for an API key</h2>
      <dl className="cli-auth-facts">
        <dt>Client</dt>
        <dd>
          <code>{ticket.client}</code>
        </dd>
        <dt>From address</dt>
        <dd>
          <code>{ticket.address}</code>
        </dd>
        <dt>Asked</dt>
        <dd>
          <When iso={ticket.requested_at} />
        </dd>
        <dt>Expires</dt>
        <dd>
          <When iso={ticket.expires_at} />
        </dd>
      </dl>
      {ticket.status === 'pending' && (
        <>
          <div className="notice warn">
            <p>
              Approve only if you have just run <code>simplex login</code> yourself, from this address. Approving gives
              whoever started this request a new API key to this server.
            </p>
          </div>
          <div className="row">
            <button type="button" disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
              Approve
            </button>
            <button
              type="button"
              className="secondary danger-quiet"
              disabled={decide.isPending}
              onClick={() => decide.mutate('deny')}
            >
              Deny
            </button>
          </div>
          {decide.isError && <ErrorNotice error={decide.error} title="Nothing was decided." />}
        </>
      )}
      <Outcome ticket={ticket} />
    </section>
  );
}

/** What became of the request, once it is no longer waiting. */
function Outcome({ ticket }: { ticket: CliAuthTicket }) {
  const key = ticket.api_key?.name;
  const settings = (
    <>
      It is listed in <Link to="/settings">Settings</Link>, where you can revoke it.
    </>
  );
  switch (ticket.status) {
    case 'pending':
      return null;
    case 'approved':
      return (
        <div className="notice ok" role="status">
          <p>
            <strong>Approved.</strong> The client receives its new key, {key}, the next time it asks (within two
            seconds). {settings}
          </p>
        </div>
      );
    case 'collected':
      return (
        <div className="notice ok" role="status">
          <p>
            <strong>The client is logged in</strong> with its new key, {key}. You can close this page. {settings}
          </p>
        </div>
      );
    case 'denied':
      return (
        <div className="notice" role="status">
          <p>
            <strong>Denied.</strong> The client was told, and got no key.
          </p>
        </div>
      );
    case 'expired':
      return (
        <div className="notice" role="status">
          <p>
            <strong>This login request expired.</strong> Run <code>simplex login</code> again for a new one.
          </p>
        </div>
      );
  }
}
