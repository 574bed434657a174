import HubIcon from '@mui/icons-material/Hub';
import { ClusterList } from './ClusterList';
import { ClusterCreate } from './ClusterCreate';
import { ClusterEdit } from './ClusterEdit';

export const clusters = { list: ClusterList, create: ClusterCreate, edit: ClusterEdit, icon: HubIcon };
