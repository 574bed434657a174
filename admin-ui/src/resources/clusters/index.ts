import HubIcon from '@mui/icons-material/Hub';
import { lazyPage } from '../../components/lazyPage';

/** The cluster screens, each loaded on first use. */
export const clusters = {
  list: lazyPage(async () => (await import('./ClusterList')).ClusterList),
  create: lazyPage(async () => (await import('./ClusterCreate')).ClusterCreate),
  edit: lazyPage(async () => (await import('./ClusterEdit')).ClusterEdit),
  show: lazyPage(async () => (await import('./ClusterEdit')).ClusterShow),
  icon: HubIcon,
};
