import { LiveStream } from '../LiveStream.tsx';
import { mountEmbed } from './EmbedFrame.tsx';

mountEmbed((options, url) => <LiveStream url={url} background={options.background} />);
